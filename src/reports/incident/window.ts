import type { IncidentSpan } from "../../incident";
import { WindowError } from "../heartbeats/window";

export interface WindowOptions {
  from?: Date;
  to?: Date;
  /** Added before the start and after the end of the default window. */
  marginMs: number;
  now: Date;
}

/** Without updates, the default window is the last day. */
const NO_UPDATES_MS = 86_400_000;

/**
 * The window a report covers: `from`/`to` when given, else the incident's first update
 * to its resolution (or now), widened by the margin on both sides and never past now.
 */
export function reportWindow(
  span: IncidentSpan,
  options: WindowOptions,
): { from: Date; to: Date; marginMs: number | null } {
  const now = options.now.getTime();
  const end = span.resolved ?? now;
  const to = options.to?.getTime() ?? Math.min(now, end + options.marginMs);
  const from =
    options.from?.getTime() ??
    (span.started !== undefined ? span.started - options.marginMs : to - NO_UPDATES_MS);
  if (from >= to) {
    throw new WindowError(
      `The window would be empty: it starts at ${new Date(from).toISOString()} and ends at ${new Date(to).toISOString()}; give a --from before --to.`,
    );
  }
  // The margin counts only where it widened an end the incident's updates gave.
  const widened =
    (options.from === undefined && span.started !== undefined) || options.to === undefined;
  return { from: new Date(from), to: new Date(to), marginMs: widened ? options.marginMs : null };
}
