import { z } from "zod";
import { ResponseDate } from "./dates";

/** One heartbeat state change (spec 2.5). `state` is any string; see HeartbeatState. */
export const HeartbeatEvent = z.object({
  id: z.string(),
  state: z.string(),
  timestamp: ResponseDate,
  source: z.string(),
  userAgent: z.string(),
});
export type HeartbeatEvent = z.infer<typeof HeartbeatEvent>;

export const SuccessRatioPeriod = z.object({
  successRatio: z.object({ previousPeriod: z.number(), currentPeriod: z.number() }),
  totalEntitiesCurrentPeriod: z.number(),
});
export type SuccessRatioPeriod = z.infer<typeof SuccessRatioPeriod>;

export const HeartbeatStats = z.object({
  last24Hours: SuccessRatioPeriod,
  last7Days: SuccessRatioPeriod,
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
