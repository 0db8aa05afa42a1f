import { HeartbeatState, type HeartbeatStateClass, heartbeatStateClass } from "../../api/schemas";
import { type Lane, type LanesSpec, readableDuration, stateSegments } from "../html/chart-data";
import type { HeartbeatReportCheck } from "./report-schema";
import {
  eventOrigin,
  MEANING_TEXT,
  placedEvents,
  stateAtEnd,
  stateName,
  stateWithMeaning,
} from "./state";

/** `2026-11-01 10:12:31 UTC`, as the page's axes and tables show times. */
export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The band `stateSegments` draws while no state is known yet. */
const NOTHING_YET = "UNKNOWN";

const MEANINGS: readonly HeartbeatStateClass[] = ["arrived", "grace", "missed", "unknown"];

/**
 * The legend of heartbeat bands and dots: one colour per meaning, naming the states it
 * covers, e.g. `healthy (RECEIVED, EARLY)`; `prefix` says whose states they are.
 */
export function heartbeatLegend(prefix = ""): LanesSpec["legend"] {
  return [
    ...MEANINGS.map((meaning) => {
      const states = HeartbeatState.options.filter((s) => heartbeatStateClass(s) === meaning);
      const covers = states.length ? states.join(", ") : "any other, shown as sent";
      return { key: meaning, label: `${prefix}${MEANING_TEXT[meaning]} (${covers})` };
    }),
    { key: NOTHING_YET, label: `${prefix}unknown (no earlier event)` },
  ];
}

/**
 * One heartbeat as a chart lane: bands by state (grey while unknown) and a mark per change,
 * coloured by meaning; events without a readable time are left out (and counted).
 */
export function heartbeatLane(
  check: HeartbeatReportCheck,
  from: number,
  to: number,
  label: string = check.checkId,
): Lane {
  const placed = placedEvents(check.events);
  const before = check.lastEventBefore ? stateName(check.lastEventBefore.state) : undefined;
  const changes = placed.map(({ at, event }) => ({ at, state: stateName(event.state) }));
  return {
    label,
    segments: stateSegments(changes, from, to, before, stateWithMeaning).map((segment) => ({
      ...segment,
      key: segment.state === NOTHING_YET ? NOTHING_YET : heartbeatStateClass(segment.state),
    })),
    marks: placed.map(({ at, event }) => ({
      at,
      key: heartbeatStateClass(event.state),
      label: `${utcText(at)}: ${stateWithMeaning(event.state)}${eventOrigin(event)}`,
    })),
  };
}

/**
 * Share of the window's time in each state (`{ RECEIVED: 0.85 }`), summed in a Map and divided
 * once: a share never rounds past 1, and a state named `constructor` is safe.
 */
export function timeInState(lane: Lane): Record<string, number> {
  const total = lane.segments.reduce((n, s) => n + (s.to - s.from), 0);
  if (total <= 0) return {};
  const spent = new Map<string, number>();
  for (const s of lane.segments) spent.set(s.state, (spent.get(s.state) ?? 0) + (s.to - s.from));
  return Object.fromEntries([...spent].map(([state, ms]) => [state, ms / total]));
}

/** Share of the window's time in each meaning; a state not known, or none yet, is unknown. */
export function timeByMeaning(
  shares: Readonly<Record<string, number>>,
): Record<HeartbeatStateClass, number> {
  const byMeaning: Record<HeartbeatStateClass, number> = {
    arrived: 0,
    grace: 0,
    missed: 0,
    unknown: 0,
  };
  for (const [state, share] of Object.entries(shares)) {
    byMeaning[heartbeatStateClass(state)] += share;
  }
  return byMeaning;
}

/** `RECEIVED 85.0 %, FAILING 15.0 %` over the window, or a note that nothing is known. */
export function timeInStateText(lane: Lane): string {
  const shares = Object.entries(timeInState(lane)).sort((a, b) => b[1] - a[1]);
  if (shares.length === 0) return "no time in the window";
  return shares.map(([state, share]) => `${state} ${(share * 100).toFixed(1)} %`).join(", ");
}

/**
 * The state at `to` and since when (the event that set it, even before the window), e.g.
 * `RECEIVED (healthy) since 2026-11-01 10:00:00 UTC (2 h 5 min)`.
 */
export function currentState(check: HeartbeatReportCheck, to: number): string {
  const end = stateAtEnd(check.events, check.lastEventBefore);
  if (end.since === null && end.state === null) return "state unknown";
  const since = end.since === null ? undefined : Date.parse(end.since);
  return since === undefined
    ? `${stateWithMeaning(end.state)} since an unknown time`
    : `${stateWithMeaning(end.state)} since ${utcText(since)} (${readableDuration(to - since)})`;
}
