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
  /**
   * `true` when the service answered `[]`, no result at all, for the check: a service may
   * answer so for a check that does not exist, where another answers 404.
   */
  noResult?: true;
}

/** The newest event of a window, and the stats of the first call. */
export interface LatestHeartbeatEvent {
  event?: HeartbeatEvent;
  stats?: HeartbeatStats;
  noResult?: true;
}

interface Walk {
  /** The client operation, named in errors: `heartbeats.eventsBetween`. */
  readonly operation: string;
  /** Encoded path of the events operation, for error messages. */
  readonly path: string;
  /** Start and end of the window asked for (both inclusive), epoch ms. */
  readonly from: number;
  readonly to: number;
  /** The server's per-call cap: a shorter answer holds every event of its window. */
  readonly pageSize: number;
  /** Most calls one walk makes; a window that needs more fails with `PagingError`. */
  readonly maxPages: number;
  /** One call for a window; the service may take `endTime` as inclusive or exclusive. */
  readonly fetchPage: (startTime: string, endTime: string) => Promise<HeartbeatEventsResponse>;
  readonly onPage?: ((page: number, newEvents: number) => void) | undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Newest first, ties by id descending; events without a readable timestamp last. */
export function newestEventsFirst(events: Iterable<HeartbeatEvent>): HeartbeatEvent[] {
  const time = (event: HeartbeatEvent) => heartbeatEventTime(event) ?? Number.NEGATIVE_INFINITY;
  return [...events].sort((a, b) => {
    const [x, y] = [time(a), time(b)];
    if (x !== y) return x < y ? 1 : -1;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });
}

/** Reads windows one call at a time, counting calls and keeping the first call's stats. */
function pager(walk: Walk) {
  let pages = 0;
  let stats: HeartbeatStats | undefined;
  let noResult = false;
  const pageAt = (start: number, end: number) =>
    answeredPage({ operation: walk.operation, method: "GET" }, walk.path, {
      startTime: iso(start),
      endTime: iso(end),
      limit: String(walk.pageSize),
    });
  return {
    pageAt,
    get stats() {
      return stats;
    },
    get noResult() {
      return noResult;
    },
    async read(start: number, end: number, seen: readonly HeartbeatEvent[], stuck = true) {
      if (pages >= walk.maxPages) {
        throw new PagingError({
          ...pageAt(start, end),
          why: `needs more than ${walk.maxPages} calls (maxPages) to list every event of the window`,
        });
      }
      pages += 1;
      const response = await walk.fetchPage(iso(start), iso(end));
      const result = response[0];
      if (pages === 1) {
        stats = result?.stats;
        noResult = result === undefined;
      }
      const batch = result?.events ?? [];
      const full = batch.length >= walk.pageSize;
      const times = batch.flatMap((event) => heartbeatEventTime(event) ?? []);
      if (stuck && full && times.length === 0) {
        throw new EventsWalkStuckError({
          ...pageAt(start, end),
          timestamp: null,
          pageSize: walk.pageSize,
          events: newestEventsFirst([...seen, ...batch]),
        });
      }
      return { page: pages, batch, full, times };
    },
  };
}

/*
 * Windows are half-open, [a, b) in whole milliseconds, and asked for as startTime a and endTime
 * b: a service that takes endTime as inclusive answers [a, b], one that takes it as exclusive
 * [a, b), and either holds every event of [a, b), sub-millisecond times included. Halves share
 * their edge ([a, s) and [s, b)), so no instant falls between them; events are kept once by id.
 */

/** Whether the answer's times show the service ignored the window asked for. */
const ignoredWindow = (times: readonly number[], a: number, b: number) =>
  times.some((at) => at < a || at > b);

/**
 * Every event of `[from, to]`, each once, whatever order the service lists them in and
 * whichever of them its `limit` keeps. An answer shorter than the cap holds every event of its
 * window; a full one says nothing of the events it left out, so its window is split in two at
 * one of the timestamps it shows (leaving nine of them on the side the service seems to favour,
 * so that side comes back complete) and both halves are read, until every window has been
 * answered short.
 *
 * Invariant: each half is strictly shorter than its window, so the walk ends; a full answer
 * for a single millisecond (more events at one time than the cap) cannot be split and stops
 * with `EventsWalkStuckError`, keeping every event collected, as does a full answer in which
 * no timestamp can be read. Events outside the window asked for are not kept. `maxPages`
 * bounds the calls.
 */
export async function walkEvents(walk: Walk): Promise<HeartbeatEventsWindow> {
  const byId = new Map<string, HeartbeatEvent>();
  const calls = pager(walk);
  const windows: [number, number][] = [[walk.from, walk.to + 1]];
  while (windows.length > 0) {
    const [a, b] = windows.pop() as [number, number];
    const { page, batch, full, times } = await calls.read(a, b, [...byId.values()]);
    let fresh = 0;
    for (const event of batch) {
      const at = heartbeatEventTime(event);
      if (at !== undefined && (at < walk.from || at > walk.to)) continue;
      if (byId.has(event.id)) continue;
      byId.set(event.id, event);
      fresh += 1;
    }
    walk.onPage?.(page, fresh);
    if (!full) continue;
    // The service ignored the window: what it answered inside it is all there is.
    if (ignoredWindow(times, a, b)) continue;
    const inside = times.filter((at) => at < b);
    if (b - a <= 1) {
      throw new EventsWalkStuckError({
        ...calls.pageAt(a, b),
        timestamp: iso(a),
        pageSize: walk.pageSize,
        events: newestEventsFirst(byId.values()),
      });
    }
    windows.push(...splitWindow(a, b, inside, newestListedFirst(batch)));
  }
  const events = newestEventsFirst(byId.values());
  const stats = calls.stats;
  return { events, ...(stats ? { stats } : {}), ...(calls.noResult ? { noResult: true } : {}) };
}

/**
 * The newest event of `[from, to]` whatever order the service lists events in: an answer
 * shorter than the cap holds the window's newest; otherwise the newest time it shows, `t`,
 * bounds the search to `[t, to]`, halved from the new end until an answer is short. At most a
 * few calls per halving, so a month's window takes a handful; ties at one instant are broken
 * by id, as `newestEventsFirst` orders them. Where the API cannot tell (a full answer without
 * a readable timestamp, more events at one instant than the cap), the newest it showed.
 */
export async function latestEvent(walk: Walk): Promise<LatestHeartbeatEvent> {
  const calls = pager(walk);
  const newestIn = async (a: number, b: number): Promise<HeartbeatEvent | undefined> => {
    const { batch, full, times } = await calls.read(a, b, [], false);
    const inside = batch.filter((event) => {
      const at = heartbeatEventTime(event);
      return at !== undefined && at >= a && at < b;
    });
    const [newest] = newestEventsFirst(inside);
    if (!full || newest === undefined || ignoredWindow(times, a, b)) return newest;
    const t = heartbeatEventTime(newest) as number;
    if (b - t <= 1) return newestAtOneInstant(t, inside);
    const middle = Math.floor((t + b) / 2);
    return (await newestIn(middle, b)) ?? (await newestIn(t, middle));
  };
  const newestAtOneInstant = async (t: number, known: HeartbeatEvent[]) => {
    const { batch } = await calls.read(t, t + 1, known, false);
    return newestEventsFirst([...known, ...batch].filter((e) => heartbeatEventTime(e) === t))[0];
  };
  const event = await newestIn(walk.from, walk.to + 1);
  const stats = calls.stats;
  return {
    ...(event ? { event } : {}),
    ...(stats ? { stats } : {}),
    ...(calls.noResult ? { noResult: true } : {}),
  };
}

/** Whether the service listed this answer newest first (then its `limit` likely kept the newest). */
function newestListedFirst(batch: readonly HeartbeatEvent[]): boolean {
  const times = batch.flatMap((event) => heartbeatEventTime(event) ?? []);
  const first = times[0];
  const last = times.at(-1);
  return first === undefined || last === undefined || first >= last;
}

/**
 * How to split a full window `[a, b)` (`b - a >= 2`) into shorter ones that cover it. Nine of
 * the answer's timestamps go to the side its order suggests the service kept (the newest side
 * when it listed newest first), so that side is likely answered short at once; failing that,
 * the newest (or oldest) instant it shows is set apart; a single instant gets a window of its
 * own, which is answered short or cannot be paged; else the time midpoint.
 */
function splitWindow(
  a: number,
  b: number,
  times: number[],
  newestKept: boolean,
): [number, number][] {
  const sorted = [...times].sort((x, y) => x - y);
  const distinct = [...new Set(sorted)];
  const halves = (s: number): [number, number][] => [
    [a, s],
    [s, b],
  ];
  const valid = (s: number | undefined): s is number => s !== undefined && s > a && s < b;
  const last = sorted.at(-2);
  const nine = newestKept ? sorted[1] : last === undefined ? undefined : last + 1;
  if (distinct.length > 1 && valid(nine)) return halves(nine);
  const first = distinct[0];
  const apart = newestKept ? distinct.at(-1) : first === undefined ? undefined : first + 1;
  if (distinct.length > 1 && valid(apart)) return halves(apart);
  if (distinct.length === 1 && first !== undefined) {
    const around: [number, number][] = [[first, first + 1]];
    if (first > a) around.push([a, first]);
    if (first + 1 < b) around.push([first + 1, b]);
    return around;
  }
  return halves(Math.floor((a + b) / 2));
}
