import type { HeartbeatEvent } from "../schemas";
import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * `heartbeats.eventsBetween` cannot go on: a full page of events shares one timestamp, so
 * the next page (which can only move the window's end, inclusive, to that timestamp) would
 * be the same page again and events at that instant beyond the page cannot be reached.
 * The events collected up to that point are kept in `events`.
 */
export class EventsWalkStuckError extends ApiError {
  override name = "EventsWalkStuckError";
  /** The instant shared by the whole page. */
  readonly timestamp: string;
  /** Every event collected before the walk stopped, newest first, each once. */
  readonly events: readonly HeartbeatEvent[];

  constructor(
    details: ApiErrorDetails & {
      timestamp: string;
      pageSize: number;
      events: readonly HeartbeatEvent[];
    },
  ) {
    super(
      `${details.operation}: ${details.method} ${details.path} returned a full page of ${details.pageSize} events all at ${details.timestamp}; the API pages by time only, so events at that instant past the first ${details.pageSize} cannot be listed. ${details.events.length} events were collected before it; they are on this error's "events".`,
      details,
    );
    this.timestamp = details.timestamp;
    this.events = details.events;
  }
}
