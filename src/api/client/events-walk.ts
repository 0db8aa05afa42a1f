import { EventsWalkStuckError } from "../errors/events-walk-stuck-error";
import { PagingError } from "../errors/paging-error";
import {
  type HeartbeatEvent,
  type HeartbeatEventsResponse,
  type HeartbeatStats,
  heartbeatEventTime,
} from "../schemas";
import { answeredPage } from "./answered-page";

/** Every event of a window, newest first, each once; `stats` as of the first call. */
export interface HeartbeatEventsWindow {
  events: HeartbeatEvent[];
  stats?: HeartbeatStats;
}

interface Walk {
  /** Encoded path of the events operation, for error messages. */
  readonly path: string;
  /** Start and end of the window (both inclusive), ISO strings. */
  readonly from: string;
  readonly to: string;
  /** The server's per-call cap; a shorter page means the window is exhausted. */
  readonly pageSize: number;
  /** Most pages walked; a window that needs more fails with `PagingError`. */
  readonly maxPages: number;
  /** One call with the window's start fixed and the given end (inclusive). */
  readonly fetchPage: (endTime: string) => Promise<HeartbeatEventsResponse>;
  readonly onPage?: ((page: number, newEvents: number) => void) | undefined;
}

const TARGET = { operation: "heartbeats.eventsBetween", method: "GET" } as const;

/** The page of the walk that ends at `endTime`, as an error names it. */
function pageAt(walk: Walk, endTime: string) {
  return answeredPage(TARGET, walk.path, {
    startTime: walk.from,
    endTime,
    limit: String(walk.pageSize),
  });
}

/**
 * Walks `[from, to]` backwards in pages. The server returns at most `pageSize` events of the
 * window, newest first (ties by id descending), both ends inclusive. The next page keeps the
 * start and moves the end to the oldest timestamp seen, inclusive, so events sharing that
 * timestamp across the page edge are fetched again and dropped by id: each event comes
 * back exactly once. Events without a readable timestamp are kept (once, by id) but cannot
 * move the end.
 *
 * Invariant: every next end is strictly earlier than the one before and not before `from`,
 * so the walk terminates. A full page that cannot move the end (all of it at one instant,
 * or no event in it with a readable timestamp) would be fetched again forever: it is
 * reported as `EventsWalkStuckError` with every event collected, never looped on. A server
 * that keeps sending full pages of new, ever older events ends at `maxPages`.
 * Stats describe the check, not the window, and are taken from the first call.
 */
export async function walkEvents(walk: Walk): Promise<HeartbeatEventsWindow> {
  const seen = new Set<string>();
  const events: HeartbeatEvent[] = [];
  let stats: HeartbeatStats | undefined;
  let endTime = walk.to;
  const fromMs = Date.parse(walk.from);

  for (let page = 1; ; page++) {
    const response = await walk.fetchPage(endTime);
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

    const times = batch.flatMap((event) => heartbeatEventTime(event) ?? []);
    const oldest = Math.min(...times);
    const oneInstant = times.length === batch.length && oldest === Math.max(...times);
    if (times.length === 0 || oneInstant || oldest >= Date.parse(endTime)) {
      throw new EventsWalkStuckError({
        ...pageAt(walk, endTime),
        timestamp: times.length === 0 ? null : new Date(oldest).toISOString(),
        pageSize: walk.pageSize,
        events,
      });
    }
    // A server that ignored the start sent events older than the window: nothing is left.
    if (oldest < fromMs) break;
    if (page >= walk.maxPages) {
      throw new PagingError({
        ...pageAt(walk, endTime),
        why: `returned a full page ${page}, and a window may take at most ${walk.maxPages} pages (maxPages)`,
      });
    }
    endTime = new Date(oldest).toISOString();
  }
  return stats ? { events, stats } : { events };
}
