import type { ServerResponse } from "node:http";
import {
  type ErrorGroup,
  type HeartbeatEvent,
  type HeartbeatStats,
  heartbeatEventTime,
} from "../../src/api";
import { type ReceivedRequest, sendError, sendJson } from "./http-server";

/**
 * The list semantics of the API, as the emulator implements them, over in-memory data, so
 * paging tests can shape the data exactly (ties, shifts between pages) and count requests.
 */

/** Error groups of one check: ordered by lastSeen descending, then id; `limit` and `page`. */
export function serveErrorGroups(
  groups: () => readonly ErrorGroup[],
  request: ReceivedRequest,
  response: ServerResponse,
): void {
  const limit = Number(request.url.searchParams.get("limit") ?? 10);
  const page = Number(request.url.searchParams.get("page") ?? 1);
  const ordered = [...groups()].sort(
    (a, b) => b.lastSeen.localeCompare(a.lastSeen) || a.id.localeCompare(b.id),
  );
  sendJson(response, 200, ordered.slice((page - 1) * limit, page * limit));
}

/**
 * Which events of a window a server's `limit` keeps, and the order it lists them in:
 * `newest-first` (the emulator's default), `oldest-first`, or `shuffled`: any of them, in any
 * order (`random` decides), as a service that promises no order may.
 */
export type EventOrder = "newest-first" | "oldest-first" | "shuffled";

/**
 * Heartbeat events: window [startTime, endTime] inclusive at both ends (or `endTime`
 * exclusive, as the contract leaves open), newest first, ties by
 * id descending (or as `order` says), at most `limit` (≤ 10), answered as
 * `[{ events, stats }]`. An event without a readable timestamp cannot be filtered by time: it
 * is in every window, after the others (the worst a server could do to a walk that pages by
 * time).
 */
export function serveHeartbeatEvents(
  events: readonly HeartbeatEvent[],
  stats: HeartbeatStats,
  request: ReceivedRequest,
  response: ServerResponse,
  order: EventOrder = "newest-first",
  random: () => number = Math.random,
  endTime: "inclusive" | "exclusive" = "inclusive",
): void {
  const query = request.url.searchParams;
  const limit = Number(query.get("limit") ?? 10);
  if (limit > 10) {
    sendError(response, 400, "limit must be at most 10");
    return;
  }
  const end = Date.parse(query.get("endTime") ?? new Date().toISOString());
  const start = Date.parse(query.get("startTime") ?? new Date(end - 86_400_000).toISOString());
  const time = (event: HeartbeatEvent) => heartbeatEventTime(event) ?? Number.NEGATIVE_INFINITY;
  const inWindow = events
    .filter((event) => {
      const at = heartbeatEventTime(event);
      return at === undefined || (at >= start && (endTime === "inclusive" ? at <= end : at < end));
    })
    .sort((a, b) => {
      const [x, y] = [time(a), time(b)];
      return x !== y ? (x < y ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
    });
  if (order === "oldest-first") inWindow.reverse();
  if (order === "shuffled") {
    for (let i = inWindow.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [inWindow[i], inWindow[j]] = [inWindow[j] as HeartbeatEvent, inWindow[i] as HeartbeatEvent];
    }
  }
  sendJson(response, 200, [{ events: inWindow.slice(0, limit), stats }]);
}
