import type { IncidentStatus, IncidentUpdate } from "../../api/schemas";
import { hasStatus, liveStatusOf, publishedAt } from "../../incident";
import { WindowError } from "../heartbeats/window";

/** When the incident ran, from its updates. */
export interface IncidentSpan {
  /** The first update, or undefined when there is none. */
  started: number | undefined;
  /** When the status last became RESOLVED, if the live status is RESOLVED. */
  resolved: number | undefined;
  liveStatus: IncidentStatus | null;
}

/**
 * The span of an incident from its updates (any order). The live status follows the
 * incident's one rule (`liveStatusOf`, without an applied status: a report reads no Pulumi
 * state): the newest update with a status, else unknown. The declared status is not live.
 */
export function incidentSpan(updates: readonly IncidentUpdate[]): IncidentSpan {
  const oldestFirst = [...updates].sort((a, b) => publishedAt(a) - publishedAt(b));
  const liveStatus = liveStatusOf(updates).status;
  let resolved: number | undefined;
  for (const update of oldestFirst) {
    if (!hasStatus(update)) continue;
    if (update.status !== "RESOLVED") resolved = undefined;
    else resolved ??= publishedAt(update);
  }
  return {
    started: oldestFirst[0] ? publishedAt(oldestFirst[0]) : undefined,
    resolved: liveStatus === "RESOLVED" ? resolved : undefined,
    liveStatus,
  };
}

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
