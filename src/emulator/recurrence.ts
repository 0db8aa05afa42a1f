import type { RepeatUnit } from "../api/schemas";

/*
 * The occurrences of a maintenance window: its first at `startsAt`, then one every `interval`
 * days, weeks or months of the window's time zone (so 02:00 in Europe/Paris stays 02:00 across
 * a change of offset), while the local date of the start is on or before `until`.
 */

/** The most maintenances one window makes; a window repeating with no end makes this many. */
export const MAINTENANCES_MADE_MAX = 100;

/** A window's schedule, as the recurrence reads it. */
export interface Schedule {
  readonly startsMs: number;
  readonly endsMs: number;
  readonly repeatUnit: RepeatUnit | null;
  readonly repeatInterval: number;
  /** The last local date an occurrence may start on (`YYYY-MM-DD`); `null`: no end. */
  readonly repeatEndsAt: string | null;
  /** An IANA name; `null` is UTC. */
  readonly timezone: string | null;
}

export interface Slot {
  readonly startsMs: number;
  readonly endsMs: number;
}

/** The schedule's occurrences in order, at most `max`, each as long as the first. */
export function occurrenceSlots(schedule: Schedule, max = MAINTENANCES_MADE_MAX): Slot[] {
  const length = schedule.endsMs - schedule.startsMs;
  const zone = schedule.timezone ?? "UTC";
  const first = localParts(schedule.startsMs, zone);
  const slots: Slot[] = [];
  for (let cycle = 0; slots.length < max; cycle++) {
    if (cycle > 0 && schedule.repeatUnit === null) break;
    const local = shifted(first, schedule.repeatUnit, cycle * schedule.repeatInterval);
    if (cycle > 0 && schedule.repeatEndsAt !== null && dateOf(local) > schedule.repeatEndsAt) break;
    const startsMs = utcOf(local, zone);
    slots.push({ startsMs, endsMs: startsMs + length });
  }
  return slots;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time of `ms` in `zone`. */
function localParts(ms: number, zone: string): LocalTime {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone, format);
  }
  const part = (type: string) =>
    Number(format.formatToParts(ms).find((p) => p.type === type)?.value ?? 0);
  return {
    year: part("year"),
    month: part("month"),
    day: part("day"),
    hour: part("hour"),
    minute: part("minute"),
    second: part("second"),
    ms: ((ms % 1000) + 1000) % 1000,
  };
}

/** `local` moved by `count` units of its calendar; a day past the month's end is its last. */
function shifted(local: LocalTime, unit: RepeatUnit | null, count: number): LocalTime {
  if (unit === null || count === 0) return local;
  if (unit === "MONTH") {
    const months = local.month - 1 + count;
    const year = local.year + Math.floor(months / 12);
    const month = (months % 12) + 1;
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return { ...local, year, month, day: Math.min(local.day, last) };
  }
  const days = unit === "WEEK" ? count * 7 : count;
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
  return {
    ...local,
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
  };
}

function asUtc(local: LocalTime): number {
  return Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
    local.ms,
  );
}

/** The instant whose wall-clock time in `zone` is `local` (in a gap, an hour later). */
function utcOf(local: LocalTime, zone: string): number {
  const wanted = asUtc(local);
  const offset = (at: number) => asUtc(localParts(at, zone)) - at;
  const guess = wanted - offset(wanted);
  return wanted - offset(guess);
}

function dateOf(local: LocalTime): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}`;
}
