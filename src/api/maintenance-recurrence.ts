import { DateTime } from "luxon";
import type { RepeatUnit } from "./schemas";

/*
 * When a maintenance window runs: its occurrences, each a maintenance of its own on the service
 * (../shared/service-contract.md, "Scheduled maintenance on the status page"). A recurring
 * window repeats in the wall time of its timezone (UTC when it has none), so a weekly 02:00
 * window stays at 02:00 across a daylight-saving change; each occurrence lasts as long as the
 * first. Definitions, plan and the emulator all read occurrences from here.
 */

/** How a window repeats: `every` units (DAY, WEEK or MONTH), until a calendar date, inclusive. */
export interface Repeat {
  readonly unit: RepeatUnit;
  readonly every: number;
  /** `YYYY-MM-DD` in the window's timezone: the last day an occurrence may start. */
  readonly until?: string | undefined;
}

/** A window's times as the service takes them. */
export interface WindowTimes {
  /** ISO 8601 with an offset or `Z`. */
  readonly startsAt: string;
  readonly endsAt: string;
  /** An IANA name; absent or null is UTC. */
  readonly timezone?: string | null | undefined;
  readonly repeat?: Repeat | null | undefined;
}

/** One run of a window. */
export interface Occurrence {
  /** Its start and end, in UTC (ISO 8601 with `Z`). */
  readonly startsAt: string;
  readonly endsAt: string;
  /** The calendar day it starts on in the window's timezone: how a definition names it. */
  readonly date: string;
}

/** The most occurrences read when looking for one by date: a daily window over 100 years. */
const MAX_SCANNED = 36_600;

/** The IANA timezones this machine knows, for suggestions. */
export function ianaZones(): readonly string[] {
  return Intl.supportedValuesOf("timeZone");
}

function zoneOf(window: WindowTimes): string {
  return window.timezone ?? "UTC";
}

/**
 * The k-th occurrence (0 is the first), or undefined when the times cannot be read or it would
 * end after the year 9999.
 */
function occurrenceAt(window: WindowTimes, k: number): Occurrence | undefined {
  const zone = zoneOf(window);
  const first = DateTime.fromISO(window.startsAt, { setZone: true }).setZone(zone);
  const end = DateTime.fromISO(window.endsAt, { setZone: true });
  if (!first.isValid || !end.isValid) return undefined;
  const length = end.toMillis() - first.toMillis();
  const repeat = window.repeat;
  const start =
    k === 0 || !repeat
      ? first
      : first.plus(
          repeat.unit === "DAY"
            ? { days: k * repeat.every }
            : repeat.unit === "WEEK"
              ? { weeks: k * repeat.every }
              : { months: k * repeat.every },
        );
  // Past the years ISO 8601 writes in four digits, there is no time to give: the end of them.
  const last = start.plus({ milliseconds: length });
  if (!start.isValid || !last.isValid || last.toUTC().year > 9999) return undefined;
  const iso = (time: DateTime) => time.toUTC().toISO({ suppressMilliseconds: true }) ?? "";
  return {
    startsAt: iso(start),
    endsAt: iso(last),
    date: start.toISODate() ?? "",
  };
}

/**
 * Every occurrence in order, from the first: up to the window's `until`, the year 9999, or
 * MAX_SCANNED of them. A one-off window has one.
 */
function* occurrences(window: WindowTimes): Generator<Occurrence> {
  const last = window.repeat ? MAX_SCANNED : 1;
  const until = window.repeat?.until;
  for (let k = 0; k < last; k++) {
    const occurrence = occurrenceAt(window, k);
    if (occurrence === undefined) return;
    if (k > 0 && until !== undefined && occurrence.date > until) return;
    yield occurrence;
  }
}

/**
 * The window's occurrences in order, from the first, at most `limit` of them; those that
 * end before `after` (an ISO time) are skipped. A one-off window has one.
 */
export function occurrencesOf(
  window: WindowTimes,
  options: { readonly limit: number; readonly after?: string | undefined },
): Occurrence[] {
  const found: Occurrence[] = [];
  const after = options.after === undefined ? undefined : Date.parse(options.after);
  for (const occurrence of occurrences(window)) {
    if (found.length >= options.limit) break;
    if (after === undefined || Date.parse(occurrence.endsAt) > after) found.push(occurrence);
  }
  return found;
}

/** The occurrence that starts on `date` (`YYYY-MM-DD` in the window's timezone), if any. */
export function occurrenceOn(window: WindowTimes, date: string): Occurrence | undefined {
  for (const occurrence of occurrences(window)) {
    if (occurrence.date > date) return undefined;
    if (occurrence.date === date) return occurrence;
  }
  return undefined;
}
