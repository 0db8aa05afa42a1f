/**
 * The public surface of the incident-sync package, by name: what a project that declares
 * incidents, calls the monitoring API or builds its own checks and reports needs. Anything
 * not named here is internal and may change in any release. Subpaths serve the rest:
 * `incident-sync/program` (the whole Pulumi program), `incident-sync/provider-operations`
 * (what a stored provider loads) and `incident-sync/emulator` (the local API).
 */

// The resource, and the program around it (observation, read-backs, drift).
export {
  Incident,
  type IncidentArgs,
  type IncidentInputs,
  type IncidentService,
  type IncidentState,
  PROVIDER_VERSION,
} from "../providers/incident";
// The typed client of the monitoring API, its errors, and what it sends and receives.
export {
  ApiError,
  type ApiErrorDetails,
  BadRequestError,
  type ClientOptions,
  ClientOptionsError,
  ConflictError,
  type ContractIssue,
  createClient,
  DeadlineError,
  type ErrorGroup,
  EventsWalkStuckError,
  ForbiddenError,
  type HeartbeatEvent,
  type HeartbeatEventsResult,
  type HeartbeatStats,
  type HttpErrorDetails,
  type IncidentCreateRequest,
  type IncidentRequest,
  type IncidentResponse,
  type IncidentStatus,
  type IncidentUpdate,
  type IncidentUpdateRequest,
  type MonitoringClient,
  NetworkError,
  NotFoundError,
  PagingError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  type RetryEvent,
  type RetryOptions,
  ServerError,
  type Severity,
  TimeoutError,
  UnauthorizedError,
  writeOutcomeUnknown,
} from "./api";
// Definitions: YAML files (or objects in code) checked into what is declared.
export {
  type DefinitionProblem,
  type IncidentDefinition,
  type IncidentDefinitionInput,
  InvalidDefinitionsError,
  type LoadedDefinition,
  type LoadResult,
  loadDefinitionObjects,
  loadDefinitions,
} from "./definitions";
// The plan of a change to the definitions, as `incident-sync plan` renders it.
export { buildPlan, type Plan, type PlanInput, renderPlanMarkdown, renderPlanText } from "./plan";
export {
  type DriftEntry,
  declareIncidentStack,
  type IncidentOutput,
  type IncidentStack,
  type IncidentStackOptions,
  type SummaryOutput,
} from "./program";
// Reports, as `incident-sync drift` and `incident-sync report` write them.
export {
  collectErrorGroups,
  collectHeartbeats,
  collectIncidents,
  computeDrift,
  renderDrift,
  writeErrorReport,
  writeHeartbeatReport,
  writeIncidentReport,
} from "./reports";
export { UserError } from "./user-error";
