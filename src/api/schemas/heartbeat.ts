import { z } from "zod";
import { ResponseDate } from "./dates";
import { HeartbeatState } from "./enums";

/*
 * A heartbeat answer as the contract allows it: an event needs only its `id`, and any stat may
 * be missing or null; readers go through the helpers below, so an odd value degrades one event.
 */

/**
 * A heartbeat state as a server sends it. The OpenAPI document lists the five states (so
 * schemathesis holds the emulator to them); the client reads any string.
 */
export const ResponseHeartbeatState = z.string().meta({
  enum: [...HeartbeatState.options],
  description: `One of ${HeartbeatState.options.join(", ")}. Clients read another value as an unknown state.`,
});

/** One heartbeat event (spec 2.5). Only `id` is required. */
export const HeartbeatEvent = z.object({
  /** A UUID on the service; read as any string. */
  id: z.string().meta({ format: "uuid" }),
  state: ResponseHeartbeatState.optional(),
  timestamp: ResponseDate.optional(),
  /** Free text: where the event came from. */
  source: z.string().nullable().optional(),
  userAgent: z.string().nullable().optional(),
});
export type HeartbeatEvent = z.infer<typeof HeartbeatEvent>;

/** Success ratios of one period, in percent (0..100); every member may be missing. */
export const SuccessRatioPeriod = z.object({
  successRatio: z
    .object({ previousPeriod: z.number().optional(), currentPeriod: z.number().optional() })
    .optional(),
  totalEntitiesCurrentPeriod: z.number().optional(),
});
export type SuccessRatioPeriod = z.infer<typeof SuccessRatioPeriod>;

export const HeartbeatStats = z.object({
  last24Hours: SuccessRatioPeriod.nullable().optional(),
  last7Days: SuccessRatioPeriod.nullable().optional(),
});
export type HeartbeatStats = z.infer<typeof HeartbeatStats>;

/** One element of the heartbeat events response (spec 2.5); both members are optional. */
export const HeartbeatEventsResult = z.object({
  events: z.array(HeartbeatEvent).optional(),
  stats: HeartbeatStats.optional(),
});
export type HeartbeatEventsResult = z.infer<typeof HeartbeatEventsResult>;

/** Response of GET /v1/checks/heartbeats/{checkId}/events (spec 4.3). */
export const HeartbeatEventsResponse = z.array(HeartbeatEventsResult);
export type HeartbeatEventsResponse = z.infer<typeof HeartbeatEventsResponse>;

/** What a state means: `arrived` (RECEIVED, EARLY), `grace`, `missed` (LATE, FAILING), or `unknown`. */
export type HeartbeatStateClass = "arrived" | "grace" | "missed" | "unknown";

const CLASS_OF: Readonly<Record<HeartbeatState, HeartbeatStateClass>> = {
  RECEIVED: "arrived",
  EARLY: "arrived",
  GRACE: "grace",
  LATE: "missed",
  FAILING: "missed",
};

/** The one rule every layer uses to read a heartbeat state; see `HeartbeatStateClass`. */
export function heartbeatStateClass(state: string | null | undefined): HeartbeatStateClass {
  return typeof state === "string" && Object.hasOwn(CLASS_OF, state)
    ? CLASS_OF[state as HeartbeatState]
    : "unknown";
}

/**
 * When an event happened, in epoch milliseconds, or `undefined` when its timestamp is
 * missing or unreadable: such an event cannot be placed on a time axis or page by time.
 */
export function heartbeatEventTime(event: { timestamp?: string | undefined }): number | undefined {
  if (event.timestamp === undefined) return undefined;
  const ms = Date.parse(event.timestamp);
  return Number.isFinite(ms) ? ms : undefined;
}
