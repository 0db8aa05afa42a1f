import { z } from "zod";
import { ResponseDate } from "./dates";
import { IncidentStatus } from "./enums";
import { ResponseStatus } from "./known-status";

/**
 * The body that posts or changes an update (and a create's one update): `description` is what
 * customers read; `notifySubscribers: true` reaches every subscriber, for good.
 */
export const IncidentUpdateRequest = z.strictObject({
  description: z.string().min(1),
  status: IncidentStatus.optional(),
  publicIncidentUpdateDate: z.iso.datetime({ offset: true }).optional(),
  notifySubscribers: z.boolean().optional(),
});
export type IncidentUpdateRequest = z.infer<typeof IncidentUpdateRequest>;

/**
 * An incident update as a server sends it (spec 2.4). Only `description` is required; every
 * other field may be missing or `null`, and `status` may be a value we do not know
 * (`knownStatus` tells).
 */
export const IncidentUpdate = z.object({
  id: z.string().nullish(),
  description: z.string(),
  status: ResponseStatus.nullish(),
  publicIncidentUpdateDate: ResponseDate.nullish(),
  created_at: ResponseDate.nullish(),
  notifySubscribers: z.boolean().nullish().default(false),
});
export type IncidentUpdate = z.infer<typeof IncidentUpdate>;

/** Response of GET /v1/status-pages/incidents/{incidentId}/incident-updates (spec 4.2). */
export const IncidentUpdateList = z.array(IncidentUpdate);
export type IncidentUpdateList = z.infer<typeof IncidentUpdateList>;
