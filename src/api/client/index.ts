export type { AllChecksOptions, ChecksApi } from "./checks";
export { createClient, type MonitoringClient } from "./create-client";
export type { CursorPage, CursorQuery, ListPagesOptions, SkippedEntry } from "./cursor-pages";
export type {
  AllErrorGroupsOptions,
  ErrorGroupsApi,
  ErrorGroupsOptions,
} from "./error-groups";
export type { HeartbeatEventsWindow, LatestHeartbeatEvent } from "./events-walk";
export type { EventsWalkOptions, HeartbeatEventsOptions, HeartbeatsApi } from "./heartbeats";
export { createHttpFetch } from "./http-fetch";
export type {
  IncidentPage,
  IncidentPagesOptions,
  IncidentsApi,
  SkippedIncident,
} from "./incidents";
export { type Intent, type Lease, type Made, takeLease } from "./lease";
export type {
  ListedPage,
  MaintenanceListOptions,
  MaintenanceWindowId,
  MaintenanceWindowsApi,
} from "./maintenance-windows";
export type { ClientOptions, RetryEvent, RetryOptions } from "./options";
export { checkRuntimeFolder, UnsafeLedgerPath } from "./private-folder";
export { THROTTLED_RETRIES_MAX } from "./retry-policy";
export type { ServicesApi } from "./services";
export type { StatusPagesApi, Subscriptions } from "./status-pages";
