import { UserError } from "../../user-error";

/** Raised when a time option (`--since`, `--from`, `--to`, `--margin`) cannot be read. */
export class WindowError extends UserError {
  override name = "WindowError";
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(\d+)\s*([mhdw])$/i;
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function durationMs(value: string): number | undefined {
  const match = DURATION.exec(value.trim());
  return match ? Number(match[1]) * UNITS[match[2]!.toLowerCase()]! : undefined;
}

/** A duration such as `30m`, `1h`, `2d` or `1w`, in milliseconds (zero allowed). */
export function parseFlagDuration(value: string, flag: string): number {
  const ms = durationMs(value);
  if (ms === undefined) {
    throw new WindowError(
      `${flag} ${JSON.stringify(value)} is not a duration; use minutes, hours, days or weeks: 30m, 1h, 2d, 1w.`,
    );
  }
  return ms;
}

/** A point in time: a duration back from `now`, or an ISO date or date-time. */
function parseTime(value: string, now: Date, flag: string): Date {
  const ago = durationMs(value);
  if (ago !== undefined) {
    if (ago <= 0) throw new WindowError(`${flag} ${value} must be longer than zero.`);
    return new Date(now.getTime() - ago);
  }
  const time = ISO_LIKE.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (!Number.isFinite(time)) {
    throw new WindowError(
      `${flag} ${JSON.stringify(value)} is neither a duration (30m, 24h, 7d, 2w) nor an ISO date (2026-11-01 or 2026-11-01T08:00:00Z).`,
    );
  }
  return new Date(time);
}

/**
 * Turns `--since` (or `--from`) into the start of a window: a duration back from `now`
 * (`90m`, `24h`, `7d`, `2w`) or an ISO date or date-time (`2026-11-01`,
 * `2026-11-01T08:00:00Z`). It must be in the past.
 */
export function parseSince(since: string, now: Date, flag = "--since"): Date {
  const time = parseTime(since, now, flag);
  if (time.getTime() >= now.getTime()) {
    throw new WindowError(`${flag} ${since} is not in the past; the window would be empty.`);
  }
  return time;
}

/** Turns `--to` into the end of a window: `now`, a duration back from now, or an ISO date. */
export function parseUntil(until: string, now: Date, flag = "--to"): Date {
  return until.trim() === "now" ? now : parseTime(until, now, flag);
}
