import { z } from "zod";
import { ResponseDate } from "./dates";
import { IncidentStatus } from "./enums";

/** An incident update as a server sends it (spec 2.4). Only `description` is required. */
export const IncidentUpdate = z.object({
  id: z.string().optional(),
  description: z.string(),
  status: IncidentStatus.optional(),
  publicIncidentUpdateDate: ResponseDate.optional(),
  created_at: ResponseDate.optional(),
  notifySubscribers: z.boolean().default(false),
});
export type IncidentUpdate = z.infer<typeof IncidentUpdate>;

/** Response of GET /v1/status-pages/incidents/{incidentId}/incident-updates (spec 4.2). */
export const IncidentUpdateList = z.array(IncidentUpdate);
export type IncidentUpdateList = z.infer<typeof IncidentUpdateList>;
