import {
  ErrorGroup,
  ErrorGroupList,
  ErrorGroupsQuery,
  HeartbeatEventsQuery,
  HeartbeatEventsResponse,
  IncidentRequest,
  IncidentResponse,
  IncidentUpdateList,
} from "../schemas";
import type { ErrorStatus, Route } from "./route";

/** The security scheme of the monitoring API: `Authorization: Bearer <API key>` (spec 5). */
export const API_KEY_SCHEME = "bearerAuth";

const READ_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 404, 429, 503];
const common = {
  security: API_KEY_SCHEME,
  headers: ["ServiceAccount"],
  tags: ["monitoring API"],
} as const;

/**
 * The five operations of the spec (section 4), keyed by operation id. The client, the
 * emulator and the OpenAPI document all take their paths, parameters and schemas from here.
 */
export const ROUTES = {
  updateIncident: {
    ...common,
    operationId: "updateIncident",
    method: "PUT",
    path: "/v1/status-pages/incidents/{incidentId}",
    summary: "Update an incident",
    pathParams: {
      incidentId: { description: "The incident to update.", example: "inc-api-errors" },
    },
    body: { name: "IncidentRequest", schema: IncidentRequest },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "Incident", schema: IncidentResponse },
    },
    errors: [...READ_ERRORS, 413, 415],
  },
  listIncidentUpdates: {
    ...common,
    operationId: "listIncidentUpdates",
    method: "GET",
    path: "/v1/status-pages/incidents/{incidentId}/incident-updates",
    summary: "List the 100 latest updates of an incident, newest first",
    pathParams: { incidentId: { description: "The incident.", example: "inc-api-errors" } },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "IncidentUpdateList", schema: IncidentUpdateList },
    },
    errors: READ_ERRORS,
  },
  listHeartbeatEvents: {
    ...common,
    operationId: "listHeartbeatEvents",
    method: "GET",
    path: "/v1/checks/heartbeats/{checkId}/events",
    summary: "List the events of a heartbeat with success-ratio statistics",
    pathParams: { checkId: { description: "The heartbeat check.", example: "hb-billing-sync" } },
    query: {
      schema: HeartbeatEventsQuery,
      descriptions: {
        startTime: "Start of the window, inclusive. Default: one day before endTime.",
        endTime: "End of the window, inclusive. Default: now.",
        limit: "Most events returned, newest first. Default 10.",
      },
    },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "HeartbeatEventsResponse", schema: HeartbeatEventsResponse },
    },
    errors: READ_ERRORS,
  },
  listErrorGroupsForCheck: {
    ...common,
    operationId: "listErrorGroupsForCheck",
    method: "GET",
    path: "/v1/error-groups/checks/{checkId}",
    summary: "List the error groups of a check, lastSeen newest first",
    pathParams: { checkId: { description: "The check.", example: "chk-api" } },
    query: {
      schema: ErrorGroupsQuery,
      descriptions: {
        limit: "Groups per page. Default 10.",
        page: "Page number from 1. Default 1.",
      },
    },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "ErrorGroupList", schema: ErrorGroupList },
    },
    errors: READ_ERRORS,
  },
  getErrorGroup: {
    ...common,
    operationId: "getErrorGroup",
    method: "GET",
    path: "/v1/error-groups/{id}",
    summary: "Retrieve one error group",
    pathParams: { id: { description: "The error group identifier." } },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "ErrorGroup", schema: ErrorGroup },
    },
    errors: READ_ERRORS,
  },
} as const satisfies Record<string, Route>;

/** The public operations in the order of the spec. */
export const PUBLIC_ROUTES: readonly Route[] = Object.values(ROUTES);
