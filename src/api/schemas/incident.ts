import { z } from "zod";
import { DateOrDateTime, ResponseDate } from "./dates";
import { IncidentStatus, Severity } from "./enums";
import { IncidentUpdate } from "./incident-update";
import { ResponseSeverity, ResponseStatus } from "./known-status";
import { Service, ServiceRef } from "./service";

export const INCIDENT_NAME_MAX = 255;

/**
 * Request body of PUT /v1/status-pages/incidents/{incidentId} (spec 2.1).
 *
 * `id`, `created_at` and `updated_at` are accepted because the spec lists them, but they
 * are server-owned: the emulator ignores them and the client never sends them.
 * `duration` is an opaque integer: the spec gives no unit, so it is passed through as is.
 */
export const IncidentRequest = z.strictObject({
  name: z.string().min(1).max(INCIDENT_NAME_MAX),
  severity: Severity,
  services: z.array(ServiceRef).min(1),
  id: z.string().optional(),
  created_at: DateOrDateTime.optional(),
  updated_at: DateOrDateTime.optional(),
  lastUpdateStatus: IncidentStatus.optional(),
  duration: z.int().nullable().optional(),
});
export type IncidentRequest = z.infer<typeof IncidentRequest>;

/**
 * Response body of the update operation (spec 2.2). Unknown fields are tolerated, enum values
 * are read as strings (`knownStatus`), and `updated_at` and `duration` may be missing or null.
 */
export const IncidentResponse = z.object({
  id: z.string(),
  name: z.string(),
  severity: ResponseSeverity,
  services: z.array(Service),
  incidentUpdates: z.array(IncidentUpdate),
  lastUpdateStatus: ResponseStatus,
  created_at: ResponseDate,
  updated_at: ResponseDate.nullish(),
  duration: z.int().nullable().optional(),
});
export type IncidentResponse = z.infer<typeof IncidentResponse>;
