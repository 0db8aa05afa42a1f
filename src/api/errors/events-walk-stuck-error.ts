import type { HeartbeatEvent } from "../schemas";
import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * `heartbeats.eventsBetween` cannot go on: a full page shares one timestamp (or has none), so
 * the next page would be the same; what was collected is kept in `events`.
 */
export class EventsWalkStuckError extends ApiError {
  override name = "EventsWalkStuckError";
  /** The instant shared by the whole page; null when no event in it had a readable timestamp. */
  readonly timestamp: string | null;
  /** Every event collected before the walk stopped, newest first, each once. */
  readonly events: readonly HeartbeatEvent[];

  constructor(
    details: ApiErrorDetails & {
      timestamp: string | null;
      pageSize: number;
      events: readonly HeartbeatEvent[];
    },
  ) {
    const page =
      details.timestamp === null
        ? `a full page of ${details.pageSize} events, none with a readable timestamp; the API pages by time only, so the events past this page cannot be listed`
        : `a full page of ${details.pageSize} events all at ${details.timestamp}; the API pages by time only, so events at that instant past the first ${details.pageSize} cannot be listed`;
    super(
      `${details.operation}: ${details.method} ${details.path} returned ${page}. ${details.events.length} events were collected before it; they are on this error's "events".`,
      details,
    );
    this.timestamp = details.timestamp;
    this.events = details.events;
  }
}
