/** Raised when `--since` is neither a duration nor a date. */
export class WindowError extends Error {
  override name = "WindowError";
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Turns `--since` into the start of the window: a duration back from `now` (`90m`,
 * `24h`, `7d`, `2w`) or an ISO date or date-time (`2026-11-01`, `2026-11-01T08:00:00Z`).
 */
export function parseSince(since: string, now: Date): Date {
  const duration = /^(\d+)\s*([mhdw])$/i.exec(since.trim());
  if (duration) {
    const amount = Number(duration[1]);
    const unit = UNITS[duration[2]!.toLowerCase()]!;
    if (amount <= 0) throw new WindowError(`--since ${since} must be longer than zero.`);
    return new Date(now.getTime() - amount * unit);
  }
  const isoLike = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
  const time = isoLike.test(since.trim()) ? Date.parse(since.trim()) : Number.NaN;
  if (!Number.isFinite(time)) {
    throw new WindowError(
      `--since ${JSON.stringify(since)} is neither a duration (30m, 24h, 7d, 2w) nor an ISO date (2026-11-01 or 2026-11-01T08:00:00Z).`,
    );
  }
  if (time >= now.getTime()) {
    throw new WindowError(`--since ${since} is not in the past; the window would be empty.`);
  }
  return new Date(time);
}
