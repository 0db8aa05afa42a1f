/**
 * Time helpers shared by the seed loader, the store and the routes. The emulator stores
 * instants as epoch milliseconds and answers with millisecond-precision ISO UTC strings.
 */

const UNIT_MS = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
} as const;

const DURATION_PART = /(\d+)(ms|s|m|h|d|w)/g;
const DURATION = /^(?:\d+(?:ms|s|m|h|d|w))+$/;

/**
 * Parses a duration such as `90s`, `15m`, `1h30m` or `7d` into milliseconds.
 * Returns `undefined` when the text is not a duration.
 */
export function parseDuration(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(DURATION_PART)) {
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  }
  return total;
}

/**
 * Resolves a seed timestamp: `now`, a relative time such as `-2h`, `-3d4h` or `+15m`
 * (relative to `now`), or an absolute ISO 8601 date or date-time.
 * Returns `undefined` when the text is none of these.
 */
export function resolveInstant(text: string, now: Date): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "now") return now.getTime();
  const sign = trimmed[0];
  if (sign === "-" || sign === "+") {
    const duration = parseDuration(trimmed.slice(1));
    if (duration === undefined) return undefined;
    return now.getTime() + (sign === "-" ? -duration : duration);
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return undefined;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Formats milliseconds with the largest units, e.g. `1d`, `1h30m`, `45s`. */
export function formatDuration(ms: number): string {
  let rest = ms;
  let text = "";
  for (const unit of ["w", "d", "h", "m", "s", "ms"] as const) {
    const count = Math.floor(rest / UNIT_MS[unit]);
    if (count > 0) {
      text += `${count}${unit}`;
      rest -= count * UNIT_MS[unit];
    }
  }
  return text === "" ? "0s" : text;
}

/** Millisecond-precision ISO 8601 in UTC, the one format the emulator answers with. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

export const DAY_MS = UNIT_MS.d;
export const HOUR_MS = UNIT_MS.h;
