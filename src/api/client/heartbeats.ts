import { z } from "zod";
import { buildPath, ROUTES } from "../routes";
import { HEARTBEAT_EVENTS_LIMIT_MAX, type HeartbeatEventsResponse, PathId } from "../schemas";
import {
  type HeartbeatEventsWindow,
  type LatestHeartbeatEvent,
  latestEvent,
  walkEvents,
} from "./events-walk";
import { checkRequest, TimeInput, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** Query of `heartbeats.listEvents`; times as `Date` or ISO 8601 strings. */
export interface HeartbeatEventsOptions {
  /** Start of the window, inclusive. Server default: one day before `endTime`. */
  startTime?: string | Date;
  /** End of the window, inclusive. Server default: now. */
  endTime?: string | Date;
  /** At most 10 (spec 4.3). Server default: 10. */
  limit?: number;
}

/** Progress of `eventsBetween`: one call per page. */
export interface EventsWalkOptions {
  /** Called after each page with its number (from 1) and how many new events it brought. */
  onPage?: (page: number, newEvents: number) => void;
}

/** Heartbeat events (spec 4.3). */
export interface HeartbeatsApi {
  /**
   * One call of `GET /v1/checks/heartbeats/{checkId}/events`: at most `limit` events of the
   * window `[startTime, endTime]`, with success-ratio stats, in the order the service chose,
   * and whichever of the window's events its `limit` kept (the spec says neither).
   * @example const [result] = await client.heartbeats.listEvents("chk_1", { limit: 10 })
   */
  listEvents(checkId: string, query?: HeartbeatEventsOptions): Promise<HeartbeatEventsResponse>;
  /**
   * Every event between `from` and `to` (both inclusive), past the 10-event cap of one call,
   * each exactly once, sorted newest first by their timestamps (ties by id) whatever order the
   * service lists them in; events without a readable timestamp are kept, last. Throws
   * `EventsWalkStuckError` when more than a page of events share one timestamp, or a full
   * page has none readable, which this API cannot page through.
   * @example const { events, stats } = await client.heartbeats.eventsBetween("chk_1", dayAgo, new Date())
   */
  eventsBetween(
    checkId: string,
    from: string | Date,
    to: string | Date,
    options?: EventsWalkOptions,
  ): Promise<HeartbeatEventsWindow>;
  /**
   * The newest event between `from` and `to` by its timestamp, whatever order the service
   * lists events in (one call when the window holds fewer than 10, a few more otherwise),
   * with the stats of the first call.
   * @example const { event } = await client.heartbeats.latestEvent("chk_1", monthAgo, new Date())
   */
  latestEvent(
    checkId: string,
    from: string | Date,
    to: string | Date,
  ): Promise<LatestHeartbeatEvent>;
}

const ROUTE = ROUTES.listHeartbeatEvents;
const RESPONSE = ROUTE.success.body.schema;
const LIST_EVENTS = target("heartbeats.listEvents", ROUTE);
const EVENTS_BETWEEN = target("heartbeats.eventsBetween", ROUTE);
const LATEST_EVENT = target("heartbeats.latestEvent", ROUTE);

const notAfter = (
  window: { startTime?: string | undefined; endTime?: string | undefined },
  context: z.RefinementCtx,
) => {
  if (
    window.startTime &&
    window.endTime &&
    Date.parse(window.startTime) > Date.parse(window.endTime)
  ) {
    context.addIssue({
      code: "custom",
      path: ["startTime"],
      message: `must not be after endTime (${window.startTime} > ${window.endTime})`,
    });
  }
};

// The spec's query schema, with the path parameter and Date objects accepted as times.
const ListEventsInput = ROUTE.query.schema
  .extend({
    checkId: PathId,
    startTime: TimeInput.optional(),
    endTime: TimeInput.optional(),
  })
  .superRefine(notAfter);

const BetweenInput = z
  .strictObject({ checkId: PathId, startTime: TimeInput, endTime: TimeInput })
  .superRefine(notAfter);

export function createHeartbeatsApi(transport: Transport, maxPages: number): HeartbeatsApi {
  /** A walk over `[from, to]`, checked before anything is sent. */
  const walkOf = (
    operation: typeof EVENTS_BETWEEN | typeof LATEST_EVENT,
    checkId: string,
    from: string | Date,
    to: string | Date,
    onPage?: EventsWalkOptions["onPage"],
  ) => {
    const input = checkRequest(operation, BetweenInput, {
      checkId,
      startTime: from,
      endTime: to,
    });
    const path = buildPath(ROUTE, input);
    return {
      operation: operation.operation,
      path,
      from: Date.parse(new Date(input.startTime).toISOString()),
      to: Date.parse(new Date(input.endTime).toISOString()),
      pageSize: HEARTBEAT_EVENTS_LIMIT_MAX,
      maxPages,
      fetchPage: (startTime: string, endTime: string) =>
        transport.call({
          ...operation,
          path,
          query: { startTime, endTime, limit: HEARTBEAT_EVENTS_LIMIT_MAX },
          schema: RESPONSE,
        }),
      onPage,
    };
  };

  return {
    async listEvents(checkId, query = {}) {
      const input = checkRequest(LIST_EVENTS, ListEventsInput, { checkId, ...query });
      return callRoute(transport, LIST_EVENTS, ROUTE, input, {
        query: { startTime: input.startTime, endTime: input.endTime, limit: input.limit },
      });
    },

    async eventsBetween(checkId, from, to, options = {}) {
      return walkEvents(walkOf(EVENTS_BETWEEN, checkId, from, to, options.onPage));
    },

    async latestEvent(checkId, from, to) {
      return latestEvent(walkOf(LATEST_EVENT, checkId, from, to));
    },
  };
}
