import {
  Check,
  CheckList,
  ChecksQuery,
  CursorListQuery,
  ErrorGroup,
  ErrorGroupList,
  ErrorGroupsQuery,
  HeartbeatEventsQuery,
  HeartbeatEventsResponse,
  IncidentCreateRequest,
  IncidentList,
  IncidentListQuery,
  IncidentRequest,
  IncidentResponse,
  IncidentUpdate,
  IncidentUpdateList,
  IncidentUpdateRequest,
  Maintenance,
  MaintenanceList,
  MaintenanceMoveRequest,
  MaintenancesQuery,
  MaintenanceUpdate,
  MaintenanceUpdateChangeRequest,
  MaintenanceUpdateRequest,
  MaintenanceWindow,
  MaintenanceWindowChangeRequest,
  MaintenanceWindowCreateRequest,
  MaintenanceWindowList,
  MaintenanceWindowsQuery,
  Service,
  ServiceList,
  StatusPage,
  StatusPageList,
} from "../schemas";
import { PAGE_WRITE_ROUTES } from "./page-write-routes";
import type { ErrorStatus, Route } from "./route";

/** The security scheme of the monitoring API: `Authorization: Bearer <API key>` (spec 5). */
export const API_KEY_SCHEME = "bearerAuth";

const READ_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 404, 429, 503];
const common = {
  security: API_KEY_SCHEME,
  headers: ["ServiceAccount"],
  tags: ["monitoring API"],
} as const;

const WRITE_ERRORS: readonly ErrorStatus[] = [...READ_ERRORS, 413, 415];
const INCIDENT_PARAM = { incidentId: { description: "The incident.", example: "inc-api-errors" } };
const LIST_QUERY_DESCRIPTIONS = (what: string) => ({
  limit: `${what} per page, 1 to 100. Default 20.`,
  nextId: "The cursor of the next page: the nextId of the page before.",
});
const UPDATE_PARAMS = {
  ...INCIDENT_PARAM,
  incidentUpdateId: { description: "The incident update.", example: "iu-1" },
};

const WINDOW_PARAM = {
  maintenanceWindowId: { description: "The maintenance window (a number).", example: "1" },
};
const MAINTENANCE_PARAMS = {
  ...WINDOW_PARAM,
  maintenanceId: {
    description: "One maintenance (occurrence) of the window.",
    example: "5bd5a3b4-8f1e-5c1e-9a43-4f0c2d5e7a10",
  },
};
const MAINTENANCE_UPDATE_PARAMS = {
  ...MAINTENANCE_PARAMS,
  updateId: { description: "An update of the maintenance.", example: "mu-1" },
};
const OFFSET_QUERY_DESCRIPTIONS = (what: string, max: number) => ({
  limit: `${what} per page, 1 to ${max}. Default 10.`,
  page: "Page number from 1. Default 1.",
});

/** The reference's maintenance-window operations ("Scheduled maintenance on the status page"). */
const MAINTENANCE_ROUTES = {
  listMaintenanceWindows: {
    ...common,
    operationId: "listMaintenanceWindows",
    method: "GET",
    path: "/v1/maintenance-windows",
    summary: "List the account's maintenance windows, a page at a time (a plain array)",
    pathParams: {},
    query: {
      schema: MaintenanceWindowsQuery,
      descriptions: OFFSET_QUERY_DESCRIPTIONS("Windows", 100),
    },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "MaintenanceWindowList", schema: MaintenanceWindowList },
    },
    errors: READ_ERRORS,
  },
  createMaintenanceWindow: {
    ...common,
    operationId: "createMaintenanceWindow",
    method: "POST",
    path: "/v1/maintenance-windows",
    summary: "Create a maintenance window and its maintenances (not idempotent)",
    pathParams: {},
    body: { name: "MaintenanceWindowCreateRequest", schema: MaintenanceWindowCreateRequest },
    success: {
      status: 201,
      description: "Created",
      body: { name: "MaintenanceWindow", schema: MaintenanceWindow },
    },
    errors: WRITE_ERRORS,
  },
  getMaintenanceWindow: {
    ...common,
    operationId: "getMaintenanceWindow",
    method: "GET",
    path: "/v1/maintenance-windows/{maintenanceWindowId}",
    summary: "Read a maintenance window",
    pathParams: WINDOW_PARAM,
    success: {
      status: 200,
      description: "Successful",
      body: { name: "MaintenanceWindow", schema: MaintenanceWindow },
    },
    errors: READ_ERRORS,
  },
  changeMaintenanceWindow: {
    ...common,
    operationId: "changeMaintenanceWindow",
    method: "PUT",
    path: "/v1/maintenance-windows/{maintenanceWindowId}",
    summary: "Change a maintenance window: only the fields sent change",
    pathParams: WINDOW_PARAM,
    body: { name: "MaintenanceWindowChangeRequest", schema: MaintenanceWindowChangeRequest },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "MaintenanceWindow", schema: MaintenanceWindow },
    },
    errors: WRITE_ERRORS,
  },
  deleteMaintenanceWindow: {
    ...common,
    operationId: "deleteMaintenanceWindow",
    method: "DELETE",
    path: "/v1/maintenance-windows/{maintenanceWindowId}",
    summary: "Remove a maintenance window, its maintenances and their updates, permanently",
    pathParams: WINDOW_PARAM,
    success: { status: 204, description: "Removed" },
    errors: READ_ERRORS,
  },
  listMaintenances: {
    ...common,
    operationId: "listMaintenances",
    method: "GET",
    path: "/v1/maintenance-windows/{maintenanceWindowId}/maintenances",
    summary: "List a window's maintenances (its occurrences), each with its updates",
    pathParams: WINDOW_PARAM,
    query: {
      schema: MaintenancesQuery,
      descriptions: OFFSET_QUERY_DESCRIPTIONS("Maintenances", 50),
    },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "MaintenanceList", schema: MaintenanceList },
    },
    errors: READ_ERRORS,
  },
  getMaintenance: {
    ...common,
    operationId: "getMaintenance",
    method: "GET",
    path: "/v1/maintenance-windows/{maintenanceWindowId}/maintenances/{maintenanceId}",
    summary: "Read one maintenance with its updates",
    pathParams: MAINTENANCE_PARAMS,
    success: {
      status: 200,
      description: "Successful",
      body: { name: "Maintenance", schema: Maintenance },
    },
    errors: READ_ERRORS,
  },
  moveMaintenance: {
    ...common,
    operationId: "moveMaintenance",
    method: "PATCH",
    path: "/v1/maintenance-windows/{maintenanceWindowId}/maintenances/{maintenanceId}",
    summary: "Move one maintenance: its startsAt and endsAt",
    pathParams: MAINTENANCE_PARAMS,
    body: { name: "MaintenanceMoveRequest", schema: MaintenanceMoveRequest },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "Maintenance", schema: Maintenance },
    },
    errors: WRITE_ERRORS,
  },
  deleteMaintenance: {
    ...common,
    operationId: "deleteMaintenance",
    method: "DELETE",
    path: "/v1/maintenance-windows/{maintenanceWindowId}/maintenances/{maintenanceId}",
    summary: "Remove one maintenance and its updates",
    pathParams: MAINTENANCE_PARAMS,
    success: { status: 204, description: "Removed" },
    errors: READ_ERRORS,
  },
  postMaintenanceUpdate: {
    ...common,
    operationId: "postMaintenanceUpdate",
    method: "POST",
    path: "/v1/maintenance-windows/{maintenanceWindowId}/maintenances/{maintenanceId}/updates",
    summary: "Post an update of a maintenance, notifying subscribers when asked (not idempotent)",
    pathParams: MAINTENANCE_PARAMS,
    body: { name: "MaintenanceUpdateRequest", schema: MaintenanceUpdateRequest },
    success: {
      status: 201,
      description: "Created",
      body: { name: "MaintenanceUpdate", schema: MaintenanceUpdate },
    },
    errors: WRITE_ERRORS,
  },
  changeMaintenanceUpdate: {
    ...common,
    operationId: "changeMaintenanceUpdate",
    method: "PUT",
    path: "/v1/maintenance-windows/{maintenanceWindowId}/maintenances/{maintenanceId}/updates/{updateId}",
    summary: "Change one update of a maintenance in place (notifies nobody again)",
    pathParams: MAINTENANCE_UPDATE_PARAMS,
    body: { name: "MaintenanceUpdateChangeRequest", schema: MaintenanceUpdateChangeRequest },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "MaintenanceUpdate", schema: MaintenanceUpdate },
    },
    errors: WRITE_ERRORS,
  },
  deleteMaintenanceUpdate: {
    ...common,
    operationId: "deleteMaintenanceUpdate",
    method: "DELETE",
    path: "/v1/maintenance-windows/{maintenanceWindowId}/maintenances/{maintenanceId}/updates/{updateId}",
    summary: "Remove one update of a maintenance",
    pathParams: MAINTENANCE_UPDATE_PARAMS,
    success: { status: 204, description: "Removed" },
    errors: READ_ERRORS,
  },
} as const satisfies Record<string, Route>;

/**
 * The spec's five operations and the reference's incident, check, service and status-page operations, by
 * operation id: the
 * client, the emulator and the OpenAPI document take paths, parameters and schemas from here.
 */
export const ROUTES = {
  createIncident: {
    ...common,
    operationId: "createIncident",
    method: "POST",
    path: "/v1/status-pages/incidents",
    summary: "Create an incident with its first update (not idempotent)",
    pathParams: {},
    body: { name: "IncidentCreateRequest", schema: IncidentCreateRequest },
    success: {
      status: 201,
      description: "Created",
      body: { name: "Incident", schema: IncidentResponse },
    },
    errors: WRITE_ERRORS,
  },
  listIncidents: {
    ...common,
    operationId: "listIncidents",
    method: "GET",
    path: "/v1/status-pages/incidents",
    summary: "List incidents, each with its updates, a page at a time",
    pathParams: {},
    query: {
      schema: IncidentListQuery,
      descriptions: LIST_QUERY_DESCRIPTIONS("Incidents"),
    },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "IncidentList", schema: IncidentList },
    },
    errors: READ_ERRORS,
  },
  getIncident: {
    ...common,
    operationId: "getIncident",
    method: "GET",
    path: "/v1/status-pages/incidents/{incidentId}",
    summary: "Read an incident with its updates",
    pathParams: INCIDENT_PARAM,
    success: {
      status: 200,
      description: "Successful",
      body: { name: "Incident", schema: IncidentResponse },
    },
    errors: READ_ERRORS,
  },
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
    errors: WRITE_ERRORS,
  },
  deleteIncident: {
    ...common,
    operationId: "deleteIncident",
    method: "DELETE",
    path: "/v1/status-pages/incidents/{incidentId}",
    summary: "Remove an incident and all its updates, permanently",
    pathParams: INCIDENT_PARAM,
    success: { status: 204, description: "Removed" },
    errors: READ_ERRORS,
  },
  postIncidentUpdate: {
    ...common,
    operationId: "postIncidentUpdate",
    method: "POST",
    path: "/v1/status-pages/incidents/{incidentId}/incident-updates",
    summary: "Post an update of an incident, notifying subscribers when asked (not idempotent)",
    pathParams: INCIDENT_PARAM,
    body: { name: "IncidentUpdateRequest", schema: IncidentUpdateRequest },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "IncidentUpdate", schema: IncidentUpdate },
    },
    errors: WRITE_ERRORS,
  },
  listIncidentUpdates: {
    ...common,
    operationId: "listIncidentUpdates",
    method: "GET",
    path: "/v1/status-pages/incidents/{incidentId}/incident-updates",
    summary: "List the 100 latest updates of an incident, newest first",
    pathParams: INCIDENT_PARAM,
    success: {
      status: 200,
      description: "Successful",
      body: { name: "IncidentUpdateList", schema: IncidentUpdateList },
    },
    errors: READ_ERRORS,
  },
  getIncidentUpdate: {
    ...common,
    operationId: "getIncidentUpdate",
    method: "GET",
    path: "/v1/status-pages/incidents/{incidentId}/incident-updates/{incidentUpdateId}",
    summary: "Read one update of an incident",
    pathParams: UPDATE_PARAMS,
    success: {
      status: 200,
      description: "Successful",
      body: { name: "IncidentUpdate", schema: IncidentUpdate },
    },
    errors: READ_ERRORS,
  },
  updateIncidentUpdate: {
    ...common,
    operationId: "updateIncidentUpdate",
    method: "PUT",
    path: "/v1/status-pages/incidents/{incidentId}/incident-updates/{incidentUpdateId}",
    summary: "Change one update of an incident in place",
    pathParams: UPDATE_PARAMS,
    body: { name: "IncidentUpdateRequest", schema: IncidentUpdateRequest },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "IncidentUpdate", schema: IncidentUpdate },
    },
    errors: WRITE_ERRORS,
  },
  deleteIncidentUpdate: {
    ...common,
    operationId: "deleteIncidentUpdate",
    method: "DELETE",
    path: "/v1/status-pages/incidents/{incidentId}/incident-updates/{incidentUpdateId}",
    summary: "Remove one update of an incident",
    pathParams: UPDATE_PARAMS,
    success: { status: 204, description: "Removed" },
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
  listChecks: {
    ...common,
    operationId: "listChecks",
    method: "GET",
    path: "/v1/checks",
    summary: "List the account's checks, a page at a time (read for their names)",
    pathParams: {},
    query: {
      schema: ChecksQuery,
      descriptions: {
        limit: "Checks per page, 1 to 100. Default 10.",
        page: "Page number from 1. Default 1.",
        checkType: "Only checks of this type, such as HEARTBEAT.",
        tag: "Only checks with this tag.",
        search: "Only checks whose name holds this text.",
      },
    },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "CheckList", schema: CheckList },
    },
    errors: READ_ERRORS,
  },
  getCheck: {
    ...common,
    operationId: "getCheck",
    method: "GET",
    path: "/v1/checks/{id}",
    summary: "Read one check",
    pathParams: { id: { description: "The check.", example: "chk-api" } },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "Check", schema: Check },
    },
    errors: READ_ERRORS,
  },
  // After the incident routes: `/v1/status-pages/{statusPageId}` would match their paths too,
  // and the first route registered answers.
  listServices: {
    ...common,
    operationId: "listServices",
    method: "GET",
    path: "/v1/status-pages/services",
    summary: "List the account's services, a page at a time",
    pathParams: {},
    query: { schema: CursorListQuery, descriptions: LIST_QUERY_DESCRIPTIONS("Services") },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "ServiceList", schema: ServiceList },
    },
    errors: READ_ERRORS,
  },
  getService: {
    ...common,
    operationId: "getService",
    method: "GET",
    path: "/v1/status-pages/services/{serviceId}",
    summary: "Read one service",
    pathParams: { serviceId: { description: "The service.", example: "svc-api" } },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "Service", schema: Service },
    },
    errors: READ_ERRORS,
  },
  listStatusPages: {
    ...common,
    operationId: "listStatusPages",
    method: "GET",
    path: "/v1/status-pages",
    summary: "List the account's status pages, each with its cards and their services",
    pathParams: {},
    query: { schema: CursorListQuery, descriptions: LIST_QUERY_DESCRIPTIONS("Status pages") },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "StatusPageList", schema: StatusPageList },
    },
    errors: READ_ERRORS,
  },
  getStatusPage: {
    ...common,
    operationId: "getStatusPage",
    method: "GET",
    path: "/v1/status-pages/{statusPageId}",
    summary: "Read one status page: its address, its cards and their services, its theme",
    pathParams: { statusPageId: { description: "The status page.", example: "sp-public" } },
    success: {
      status: 200,
      description: "Successful",
      body: { name: "StatusPage", schema: StatusPage },
    },
    errors: READ_ERRORS,
  },
  ...PAGE_WRITE_ROUTES,
  ...MAINTENANCE_ROUTES,
} as const satisfies Record<string, Route>;

/**
 * The public operations: the reference's incident operations, the spec's in its order, the
 * reference's checks, then its services and status pages, their writes, then its maintenance
 * windows.
 */
export const PUBLIC_ROUTES: readonly Route[] = Object.values(ROUTES);
