import { z } from "zod";
import { DateOrDateTime, ResponseDate } from "./dates";

/**
 * A service as sent in an incident request (spec 2.3). The spec does not say which
 * fields are required; we require `id`, because a service is identified by it, and
 * allow the rest.
 */
export const ServiceRef = z.strictObject({
  id: z.string().min(1),
  name: z.string().optional(),
  accountId: z.string().optional(),
  created_at: DateOrDateTime.optional(),
  updated_at: DateOrDateTime.optional(),
});
export type ServiceRef = z.infer<typeof ServiceRef>;

/** A service as a server sends it: `id` required, everything else tolerated. */
export const Service = z.object({
  id: z.string(),
  name: z.string().optional(),
  accountId: z.string().optional(),
  created_at: ResponseDate.optional(),
  updated_at: ResponseDate.optional(),
});
export type Service = z.infer<typeof Service>;
