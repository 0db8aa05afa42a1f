import { DateOrDateTime } from "../api/schemas";

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
/**
 * A duration: one to four parts, each up to four digits and a unit (`90s`, `1h30m`, `7d`).
 * So a duration is at most 4 × 9999 weeks (767 years), and every time computed from one
 * stays within the years 0000 to 9999 that an answer can write as an ISO date-time.
 */
export const DURATION_PATTERN = /^(?:\d{1,4}(?:ms|s|m|h|d|w)){1,4}$/;
/** A time relative to now: a sign and a duration (`-2h`, `-3d4h`, `+15m`). */
export const RELATIVE_TIME_PATTERN = /^[+-](?:\d{1,4}(?:ms|s|m|h|d|w)){1,4}$/;

/**
 * Parses a duration such as `90s`, `15m`, `1h30m` or `7d` into milliseconds.
 * Returns `undefined` when the text is not a duration (see `DURATION_PATTERN`).
 */
export function parseSeedDuration(text: string): number | undefined {
  if (!DURATION_PATTERN.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(DURATION_PART)) {
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  }
  return total;
}

/**
 * Resolves a seed timestamp: `now`, a relative time such as `-2h`, `-3d4h` or `+15m`
 * (relative to `now`), or an absolute RFC 3339 date-time with an offset or a plain date
 * (UTC midnight), the forms the API schemas take (`DateOrDateTime`).
 * Returns `undefined` when the text is none of these.
 */
export function resolveInstant(text: string, now: Date): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "now") return now.getTime();
  if (RELATIVE_TIME_PATTERN.test(trimmed)) {
    const duration = parseSeedDuration(trimmed.slice(1)) as number;
    return now.getTime() + (trimmed.startsWith("-") ? -duration : duration);
  }
  return DateOrDateTime.safeParse(trimmed).success ? Date.parse(trimmed) : undefined;
}

/** Formats milliseconds with the largest units, e.g. `1d`, `1h30m`, `45s`. */
export function formatSeedDuration(ms: number): string {
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
