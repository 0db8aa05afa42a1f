/**
 * The package's public surface, by name: what a project that declares incidents, calls the
 * API or checks definitions in its own pipeline needs; the rest is internal. Subpaths serve
 * more: `/program`, `/reports`, `/emulator` and `/provider-operations` (package.json).
 */

// The resource, and the program around it (observation, read-backs, drift).
export { Incident, type IncidentArgs, type IncidentService } from "../providers/incident";
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
export { UserError } from "./user-error";
