import { z } from "zod";
import { DateOrDateTime } from "./dates";

export const HEARTBEAT_EVENTS_LIMIT_MAX = 10;
export const ERROR_GROUPS_LIMIT_MAX = 100;

/**
 * Query of the heartbeat events operation (spec 4.3). The spec types `limit` as a
 * number at most 10; we decide it is an integer from 1. Times are sent as date-times
 * because a date alone cannot express a window shorter than a day.
 */
export const HeartbeatEventsQuery = z.strictObject({
  startTime: DateOrDateTime.optional(),
  endTime: DateOrDateTime.optional(),
  limit: z.int().min(1).max(HEARTBEAT_EVENTS_LIMIT_MAX).optional(),
});
export type HeartbeatEventsQuery = z.infer<typeof HeartbeatEventsQuery>;

/** Query of the error-group list (spec 4.4). `page` is typed number; we decide integer. */
export const ErrorGroupsQuery = z.strictObject({
  limit: z.int().min(1).max(ERROR_GROUPS_LIMIT_MAX).optional(),
  page: z.int().min(1).optional(),
});
export type ErrorGroupsQuery = z.infer<typeof ErrorGroupsQuery>;
