import { z } from "zod";
import { CURSOR_LIST_LIMIT_MAX, CursorListPage, CursorListQuery, cursorList } from "./cursor-list";
import { DateOrDateTime, ResponseDate } from "./dates";
import { IncidentStatus, Severity } from "./enums";
import { IncidentUpdate, IncidentUpdateRequest } from "./incident-update";
import { ResponseSeverity, ResponseStatus } from "./known-status";
import { Service, ServiceRef } from "./service";

export const INCIDENT_NAME_MAX = 255;

/**
 * The PUT body (spec 2.1). `id`, `created_at` and `updated_at` are the server's: the client
 * never sends them. `duration` has no unit in the spec and passes through as is.
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
 * Request body of `POST /v1/status-pages/incidents` (the service's public reference): the
 * incident and exactly one update, its first public message. The service picks the id.
 */
export const IncidentCreateRequest = z.strictObject({
  name: IncidentRequest.shape.name,
  severity: Severity,
  services: z.array(ServiceRef).min(1),
  incidentUpdates: z.array(IncidentUpdateRequest).length(1),
  lastUpdateStatus: IncidentStatus.optional(),
  duration: z.int().nullable().optional(),
});
export type IncidentCreateRequest = z.infer<typeof IncidentCreateRequest>;

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

/** Query of `GET /v1/status-pages/incidents`: `limit` 1 to 100 (server default 20), a cursor. */
export const INCIDENTS_LIMIT_MAX = CURSOR_LIST_LIMIT_MAX;
export const IncidentListQuery = CursorListQuery;
export type IncidentListQuery = CursorListQuery;

/**
 * Response of the incident list: `{ length, entries, nextId }`. Entries are read one by one
 * by the client (`incidents.listPage`), so one entry the schema refuses degrades that entry
 * only; `nextId` is `null` (or absent) on the last page.
 */
export const IncidentListPage = CursorListPage;
export type IncidentListPage = CursorListPage;

/**
 * An incident as the list returns it: as the read answers it, but `incidentUpdates` may be
 * missing in a lean answer, and then nothing about the updates may be concluded from it.
 */
export const ListedIncident = IncidentResponse.extend({
  incidentUpdates: z.array(IncidentUpdate).optional(),
});
export type ListedIncident = z.infer<typeof ListedIncident>;

/** The list as the emulator answers it (the OpenAPI document's shape of a page). */
export const IncidentList = cursorList(IncidentResponse);
export type IncidentList = z.infer<typeof IncidentList>;
