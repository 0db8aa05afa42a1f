import { EventsWalkStuckError } from "../errors/events-walk-stuck-error";
import { ResponseValidationError } from "../errors/response-validation-error";
import type { HeartbeatEvent, HeartbeatEventsResponse, HeartbeatStats } from "../schemas";
import type { HeartbeatEventsWindow } from "./heartbeats";

interface Walk {
  /** Encoded path of the events operation, for error messages. */
  readonly path: string;
  /** Start and end of the window (both inclusive), ISO strings. */
  readonly from: string;
  readonly to: string;
  /** The server's per-call cap; a shorter page means the window is exhausted. */
  readonly pageSize: number;
  /** One call with the window's start fixed and the given end (inclusive). */
  readonly fetchPage: (endTime: string) => Promise<HeartbeatEventsResponse>;
  readonly onPage?: ((page: number, newEvents: number) => void) | undefined;
}

const OPERATION = "heartbeats.eventsBetween";

/**
 * Walks `[from, to]` backwards in pages. The server returns at most `pageSize` events of the
 * window, newest first (ties by id descending), both ends inclusive. The next page keeps the
 * start and moves the end to the oldest timestamp seen, inclusive, so events sharing that
 * timestamp across the page edge are fetched again and dropped by id: each event comes
 * back exactly once. The end moves strictly earlier on every page (the oldest event of a page
 * with two distinct timestamps is older than the window's end), so the walk terminates; the
 * one case that cannot move, a full page at a single instant, is reported, never looped on.
 * Stats describe the check, not the window, and are taken from the first call.
 */
export async function walkEvents(walk: Walk): Promise<HeartbeatEventsWindow> {
  const seen = new Set<string>();
  const events: HeartbeatEvent[] = [];
  let stats: HeartbeatStats | undefined;
  let endTime = walk.to;

  for (let page = 1; ; page++) {
    const response = await walk.fetchPage(endTime);
    const where = {
      operation: OPERATION,
      method: "GET",
      path: `${walk.path}?${new URLSearchParams({ startTime: walk.from, endTime, limit: String(walk.pageSize) })}`,
      status: 200,
      attempts: 1,
    };
    // The response is a one-element array; an empty array means no events.
    const result = response[0];
    if (page === 1) stats = result?.stats;
    const batch = result?.events ?? [];

    let fresh = 0;
    for (const event of batch) {
      if (seen.has(event.id)) continue;
      seen.add(event.id);
      events.push(event);
      fresh++;
    }
    walk.onPage?.(page, fresh);
    if (batch.length < walk.pageSize) break;

    const times = batch.map((event, index) => {
      const time = Date.parse(event.timestamp);
      if (Number.isNaN(time)) {
        throw new ResponseValidationError({
          ...where,
          issues: [
            {
              field: `[0].events[${index}].timestamp`,
              problem: `not a date-time: ${JSON.stringify(event.timestamp)}`,
            },
          ],
        });
      }
      return time;
    });
    const oldest = Math.min(...times);
    if (oldest === Math.max(...times) || oldest >= Date.parse(endTime)) {
      throw new EventsWalkStuckError({
        ...where,
        timestamp: new Date(oldest).toISOString(),
        pageSize: walk.pageSize,
        events,
      });
    }
    endTime = new Date(oldest).toISOString();
  }
  return stats ? { events, stats } : { events };
}
