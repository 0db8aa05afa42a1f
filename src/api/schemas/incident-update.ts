import { z } from "zod";
import { ResponseDate } from "./dates";
import { ResponseStatus } from "./known-status";

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
