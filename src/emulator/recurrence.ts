import { occurrencesOf } from "../api/maintenance-recurrence";
import type { RepeatUnit } from "../api/schemas";

/*
 * The maintenances a window makes: its occurrences (src/api/maintenance-recurrence.ts, which
 * definitions and plan read too), as the emulator's store keeps them, in milliseconds.
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

/**
 * The schedule's occurrences in order, each as long as the first: at most `max` of those that
 * end after `afterMs` (all of them without it).
 */
export function occurrenceSlots(
  schedule: Schedule,
  afterMs?: number,
  max = MAINTENANCES_MADE_MAX,
): Slot[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  const repeat =
    schedule.repeatUnit === null
      ? null
      : {
          unit: schedule.repeatUnit,
          every: schedule.repeatInterval,
          until: schedule.repeatEndsAt ?? undefined,
        };
  const window = {
    startsAt: iso(schedule.startsMs),
    endsAt: iso(schedule.endsMs),
    timezone: schedule.timezone,
    repeat,
  };
  return occurrencesOf(window, {
    limit: max,
    after: afterMs === undefined ? undefined : iso(afterMs),
  }).map((occurrence) => ({
    startsMs: Date.parse(occurrence.startsAt),
    endsMs: Date.parse(occurrence.endsAt),
  }));
}
