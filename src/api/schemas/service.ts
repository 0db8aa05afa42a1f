import { z } from "zod";
import { cursorList } from "./cursor-list";
import { DateOrDateTime, ResponseDate } from "./dates";

/**
 * A service in an incident request (spec 2.3): the reference requires `id`, `name` and
 * `accountId` (the account the request acts for), so a body without them is refused unsent.
 */
export const ServiceRef = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  accountId: z.string().min(1),
  created_at: DateOrDateTime.optional(),
  updated_at: DateOrDateTime.optional(),
});
export type ServiceRef = z.infer<typeof ServiceRef>;

/**
 * A service as a server sends it: `id` required, everything else tolerated, `updated_at`
 * may be `null` (public reference).
 */
export const Service = z.object({
  id: z.string(),
  name: z.string().optional(),
  accountId: z.string().optional(),
  created_at: ResponseDate.optional(),
  updated_at: ResponseDate.nullable().optional(),
});
export type Service = z.infer<typeof Service>;

/**
 * The body that creates a service (`POST /v1/status-pages/services`) or renames one (`PUT
 * …/services/{serviceId}`): its `name` alone; the service picks the id.
 */
export const ServiceRequest = z.strictObject({ name: z.string().min(1) });
export type ServiceRequest = z.infer<typeof ServiceRequest>;

/** The services list as the emulator answers it: `{ length, entries, nextId }`. */
export const ServiceList = cursorList(Service);
export type ServiceList = z.infer<typeof ServiceList>;
