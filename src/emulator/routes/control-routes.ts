import type { OpenApiExtension } from "../../api/openapi";
import type { ErrorStatus, Route } from "../../api/routes";
import { ErrorGroup, IncidentResponse, IncidentUpdate } from "../../api/schemas";
import { Behaviour } from "../behaviour";
import {
  BulkCheckResultsBody,
  CheckResultBody,
  ClockMoveBody,
  ClockReading,
  ControlHealth,
  GeneratedErrorGroups,
  GenerateErrorGroupsBody,
  HeartbeatPingBody,
  HeartbeatSettingsBody,
  IncidentEditBody,
  MaintenanceNoticeList,
  NewIncidentUpdateBody,
  NotificationList,
  RecordedPing,
  RecordedResult,
  RecordedResults,
  SeedLoaded,
} from "../control-schemas";
import { Faults } from "../faults";
import { RequestStats } from "../request-stats";
import { SeedFile } from "../seed-schema";

/** The control API's security scheme: `Authorization: Bearer <admin token>`. */
export const ADMIN_TOKEN_SCHEME = "adminToken";

const control = { security: ADMIN_TOKEN_SCHEME, tags: ["control API"] } as const;
const WITH_BODY: readonly ErrorStatus[] = [400, 401, 404, 413, 415];
// Each path parameter described once, for every route that takes it.
const accountId = { description: "The account.", example: "acct-demo" };
const incidentId = { description: "The incident.", example: "inc-api-errors" };
const checkId = { description: "The check.", example: "chk-api" };
const heartbeatCheckId = { description: "The heartbeat check.", example: "hb-billing-sync" };

/**
 * The control API (`/_control`), in the same form as the public route table: the emulator
 * registers its handlers from it and `/openapi.json` documents it.
 */
export const CONTROL_ROUTES = {
  controlHealth: {
    ...control,
    operationId: "controlHealth",
    method: "GET",
    path: "/_control/health",
    summary: "Check that the control API answers",
    pathParams: {},
    success: {
      status: 200,
      description: "Up",
      body: { name: "ControlHealth", schema: ControlHealth },
    },
    errors: [401],
  },
  getFaults: {
    ...control,
    operationId: "getFaults",
    method: "GET",
    path: "/_control/faults",
    summary: "Read the faults injected into the public API",
    pathParams: {},
    success: { status: 200, description: "The faults", body: { name: "Faults", schema: Faults } },
    errors: [401],
  },
  setFaults: {
    ...control,
    operationId: "setFaults",
    method: "PUT",
    path: "/_control/faults",
    summary: "Replace the faults injected into the public API; {} turns them off",
    pathParams: {},
    body: { name: "FaultsRequest", schema: Faults },
    success: {
      status: 200,
      description: "The faults now",
      body: { name: "Faults", schema: Faults },
    },
    errors: [400, 401, 413, 415],
  },
  getBehaviour: {
    ...control,
    operationId: "getBehaviour",
    method: "GET",
    path: "/_control/behaviour",
    summary: "Read what the emulator does where the service's behaviour is unknown",
    pathParams: {},
    success: {
      status: 200,
      description: "The behaviour",
      body: { name: "Behaviour", schema: Behaviour },
    },
    errors: [401],
  },
  setBehaviour: {
    ...control,
    operationId: "setBehaviour",
    method: "PATCH",
    path: "/_control/behaviour",
    summary:
      "Change what the emulator does where the service's behaviour is unknown (putStatus, listOrder, rateWindow, unknownCheck, accountHeader, answers, createAnswer, createDelayMs, editDate, referenceOperations, duplicateAnswer, serviceNames, serviceInUse)",
    pathParams: {},
    body: { name: "BehaviourRequest", schema: Behaviour.partial() },
    success: {
      status: 200,
      description: "The behaviour now",
      body: { name: "Behaviour", schema: Behaviour },
    },
    errors: [400, 401, 413, 415],
  },
  getRequestStats: {
    ...control,
    operationId: "getRequestStats",
    method: "GET",
    path: "/_control/stats",
    summary: "Count the public API requests since the start or the last reset",
    pathParams: {},
    success: {
      status: 200,
      description: "The counts",
      body: { name: "RequestStats", schema: RequestStats },
    },
    errors: [401],
  },
  resetRequestStats: {
    ...control,
    operationId: "resetRequestStats",
    method: "DELETE",
    path: "/_control/stats",
    summary: "Start counting public API requests from zero",
    pathParams: {},
    success: { status: 204, description: "Counting starts again" },
    errors: [401],
  },
  loadSeed: {
    ...control,
    operationId: "loadSeed",
    method: "POST",
    path: "/_control/seed",
    summary: "Add a seed (the format of examples/seed/demo.yaml, as JSON)",
    pathParams: {},
    body: { name: "SeedFile", schema: SeedFile },
    success: {
      status: 201,
      description: "Loaded",
      body: { name: "SeedLoaded", schema: SeedLoaded },
    },
    errors: [400, 401, 409, 413, 415],
  },
  editIncident: {
    ...control,
    operationId: "editIncident",
    method: "PATCH",
    path: "/_control/accounts/{accountId}/incidents/{incidentId}",
    summary:
      "Edit an incident as in the status page UI: name, severity and services change without an update; a new status posts `Status changed to <STATUS>`",
    pathParams: { accountId, incidentId },
    body: { name: "IncidentEdit", schema: IncidentEditBody },
    success: {
      status: 200,
      description: "The incident",
      body: { name: "Incident", schema: IncidentResponse },
    },
    errors: WITH_BODY,
  },
  appendIncidentUpdate: {
    ...control,
    operationId: "appendIncidentUpdate",
    method: "POST",
    path: "/_control/accounts/{accountId}/incidents/{incidentId}/updates",
    summary: "Post an incident update as from the UI; a status becomes the incident's",
    pathParams: { accountId, incidentId },
    body: { name: "NewIncidentUpdate", schema: NewIncidentUpdateBody },
    success: {
      status: 201,
      description: "The update",
      body: { name: "IncidentUpdate", schema: IncidentUpdate },
    },
    errors: WITH_BODY,
  },
  listNotifications: {
    ...control,
    operationId: "listNotifications",
    method: "GET",
    path: "/_control/accounts/{accountId}/notifications",
    summary:
      "Every update sent to the subscribers of the account's status page (notifySubscribers: true), oldest first",
    pathParams: { accountId },
    success: {
      status: 200,
      description: "The notifications",
      body: { name: "NotificationList", schema: NotificationList },
    },
    errors: [400, 401, 404],
  },
  listMaintenanceNotifications: {
    ...control,
    operationId: "listMaintenanceNotifications",
    method: "GET",
    path: "/_control/accounts/{accountId}/maintenance-notifications",
    summary:
      "Every maintenance notification sent to the account's subscribers (reminders, automatic starts and ends, updates with notifySubscribers: true), in the order sent",
    pathParams: { accountId },
    success: {
      status: 200,
      description: "The notifications",
      body: { name: "MaintenanceNoticeList", schema: MaintenanceNoticeList },
    },
    errors: [400, 401, 404],
  },
  getClock: {
    ...control,
    operationId: "getClock",
    method: "GET",
    path: "/_control/clock",
    summary: "Read the emulator's clock: its now, and its offset from the real clock",
    pathParams: {},
    success: {
      status: 200,
      description: "The clock",
      body: { name: "ClockReading", schema: ClockReading },
    },
    errors: [401],
  },
  moveClock: {
    ...control,
    operationId: "moveClock",
    method: "POST",
    path: "/_control/clock",
    summary:
      "Set the emulator's clock ({at}: ISO, now or relative such as +2h) or move it forward ({advanceMinutes}); every maintenance reminder, start and end due by then is carried out, once",
    pathParams: {},
    body: { name: "ClockMove", schema: ClockMoveBody },
    success: {
      status: 200,
      description: "The clock now",
      body: { name: "ClockReading", schema: ClockReading },
    },
    errors: [400, 401, 413, 415],
  },
  recordCheckResult: {
    ...control,
    operationId: "recordCheckResult",
    method: "POST",
    path: "/_control/accounts/{accountId}/checks/{checkId}/results",
    summary: "Record a check result; an error joins (or starts) its error group",
    pathParams: { accountId, checkId },
    body: { name: "CheckResult", schema: CheckResultBody },
    success: {
      status: 201,
      description: "Recorded",
      body: { name: "RecordedResult", schema: RecordedResult },
    },
    errors: WITH_BODY,
  },
  recordCheckResults: {
    ...control,
    operationId: "recordCheckResults",
    method: "POST",
    path: "/_control/accounts/{accountId}/check-results",
    summary: "Record many check results in one transaction",
    pathParams: { accountId },
    body: { name: "CheckResults", schema: BulkCheckResultsBody },
    success: {
      status: 201,
      description: "Recorded",
      body: { name: "RecordedResults", schema: RecordedResults },
    },
    errors: WITH_BODY,
  },
  generateErrorGroups: {
    ...control,
    operationId: "generateErrorGroups",
    method: "POST",
    path: "/_control/accounts/{accountId}/checks/{checkId}/error-groups",
    summary: "Create count distinct error groups for a check at once",
    pathParams: { accountId, checkId },
    body: { name: "GenerateErrorGroups", schema: GenerateErrorGroupsBody },
    success: {
      status: 201,
      description: "Created",
      body: { name: "GeneratedErrorGroups", schema: GeneratedErrorGroups },
    },
    errors: WITH_BODY,
  },
  archiveErrorGroup: {
    ...control,
    operationId: "archiveErrorGroup",
    method: "POST",
    path: "/_control/accounts/{accountId}/error-groups/{id}/archive",
    summary: "Archive an error group until its next check result",
    pathParams: { accountId, id: { description: "The error group." } },
    success: {
      status: 200,
      description: "The archived group",
      body: { name: "ErrorGroup", schema: ErrorGroup },
    },
    errors: [400, 401, 404],
  },
  configureHeartbeat: {
    ...control,
    operationId: "configureHeartbeat",
    method: "PUT",
    path: "/_control/accounts/{accountId}/heartbeats/{checkId}",
    summary: "Create or configure a heartbeat check: name, period and grace",
    pathParams: { accountId, checkId: heartbeatCheckId },
    body: { name: "HeartbeatSettings", schema: HeartbeatSettingsBody },
    success: { status: 204, description: "Configured" },
    errors: [...WITH_BODY, 409],
  },
  recordHeartbeatPing: {
    ...control,
    operationId: "recordHeartbeatPing",
    method: "POST",
    path: "/_control/accounts/{accountId}/heartbeats/{checkId}/pings",
    summary:
      "Record a heartbeat ping; ok: true arrived (RECEIVED or EARLY), ok: false is FAILING, silence past the period GRACE then LATE",
    pathParams: { accountId, checkId: heartbeatCheckId },
    body: { name: "HeartbeatPing", schema: HeartbeatPingBody },
    success: {
      status: 201,
      description: "Recorded",
      body: { name: "RecordedPing", schema: RecordedPing },
    },
    errors: [...WITH_BODY, 409],
  },
} as const satisfies Record<string, Route>;

/** What the emulator adds to `/openapi.json`: the control API and its admin token. */
export const CONTROL_OPENAPI: OpenApiExtension = {
  routes: Object.values(CONTROL_ROUTES),
  securitySchemes: {
    [ADMIN_TOKEN_SCHEME]: {
      type: "http",
      scheme: "bearer",
      description:
        "The emulator's admin token: `Authorization: Bearer <admin token>` (printed at start, or --admin-token).",
    },
  },
  tags: [
    {
      name: "control API",
      description:
        "The emulator's own API for tests and demos: events of the monitoring service itself, faults and request counts. Not part of the monitoring API.",
    },
  ],
  description:
    "This emulator also serves its control API under `/_control`, with its own admin token (security scheme `adminToken`).",
};
