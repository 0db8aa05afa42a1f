import {
  type HeartbeatEvent,
  type HeartbeatStateClass,
  heartbeatEventTime,
  heartbeatStateClass,
} from "../../api/schemas";

/*
 * How reports word heartbeat states. What a state means is `heartbeatStateClass`'s rule;
 * this file only names it for a reader. A state is always shown as the server sent it.
 */

/** Shown for an event that carries no state. */
export const NO_STATE = "(no state)";

/** An event's state as sent, or `(no state)`. */
export function stateName(state: string | null | undefined): string {
  return state ?? NO_STATE;
}

/** What each meaning is called in a report: arriving pings are a healthy heartbeat. */
export const MEANING_TEXT: Readonly<Record<HeartbeatStateClass, string>> = {
  arrived: "healthy",
  grace: "overdue, in grace",
  missed: "missed or failing",
  unknown: "unknown state",
};

/** `RECEIVED (healthy)`, `LATE (missed or failing)`, `PAUSED (unknown state)`. */
export function stateWithMeaning(state: string | null | undefined): string {
  return `${stateName(state)} (${MEANING_TEXT[heartbeatStateClass(state)]})`;
}

/** ` · cron · curl/8.5.0`, ` · cron`, or nothing when the event names neither. */
export function eventOrigin(event: HeartbeatEvent): string {
  const parts = [event.source, event.userAgent].filter((part) => part != null && part !== "");
  return parts.map((part) => ` · ${part}`).join("");
}

/** An event with its time: one that can be placed on a time axis. */
export interface PlacedEvent {
  at: number;
  event: HeartbeatEvent;
}

/** The events that have a readable timestamp, with it, in the order given. */
export function placedEvents(events: readonly HeartbeatEvent[]): PlacedEvent[] {
  return events.flatMap((event) => {
    const at = heartbeatEventTime(event);
    return at === undefined ? [] : [{ at, event }];
  });
}

/** The state in force at the end of a window, for a reader and for the JSON report. */
export interface StateAtEnd {
  /** As sent; null when no event says (none, or the newest has no state). */
  state: string | null;
  meaning: HeartbeatStateClass;
  /** When that event happened; null when unknown. */
  since: string | null;
}

/**
 * The state at the end of the window: that of the newest event that can be placed, else of
 * the last event before the window (events without a readable timestamp cannot be ordered,
 * so they never decide it).
 */
export function stateAtEnd(
  events: readonly HeartbeatEvent[],
  lastEventBefore: HeartbeatEvent | null,
): StateAtEnd {
  const newest = placedEvents(events).reduce<PlacedEvent | undefined>(
    (found, placed) => (found === undefined || placed.at >= found.at ? placed : found),
    undefined,
  );
  const last = newest?.event ?? lastEventBefore;
  const since = newest?.at ?? (last ? heartbeatEventTime(last) : undefined);
  return {
    state: last?.state ?? null,
    meaning: heartbeatStateClass(last?.state),
    since: since === undefined ? null : new Date(since).toISOString(),
  };
}
