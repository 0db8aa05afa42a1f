import { inspect } from "node:util";
import { type ChecksApi, createChecksApi } from "./checks";
import { createErrorGroupsApi, type ErrorGroupsApi } from "./error-groups";
import { createHeartbeatsApi, type HeartbeatsApi } from "./heartbeats";
import { createIncidentsApi, type IncidentsApi } from "./incidents";
import { createMaintenanceWindowsApi, type MaintenanceWindowsApi } from "./maintenance-windows";
import type { ClientOptions } from "./options";
import { resolveOptions } from "./resolve-options";
import { createServicesApi, type ServicesApi } from "./services";
import { createStatusPagesApi, type StatusPagesApi } from "./status-pages";
import { createTransport } from "./transport";

/** A client of the monitoring API: one method per operation it calls, plus walkers of its lists. */
export interface MonitoringClient {
  readonly incidents: IncidentsApi;
  /** The account's services (the reference's list and read). */
  readonly services: ServicesApi;
  /** The account's status pages, their cards and services. */
  readonly statusPages: StatusPagesApi;
  readonly heartbeats: HeartbeatsApi;
  readonly errorGroups: ErrorGroupsApi;
  /** The account's checks: the names the reports give the checks they read. */
  readonly checks: ChecksApi;
  /** Scheduled maintenance: windows, their maintenances (occurrences) and their updates. */
  readonly maintenanceWindows: MaintenanceWindowsApi;
}

/**
 * Creates a client. Every call sends `Authorization: Bearer <apiKey>` (and `x-service-account`
 * when `accountId` is set), is checked against the spec before it is sent, times out, is
 * retried on 429/502/503/504 and network failures, and counts against the client's own rate
 * limit and concurrency cap. Clients share nothing: create one per key.
 *
 * The key is held only in closures; `util.inspect(client)` and `JSON.stringify(client)`
 * show the base URL and account, never the key.
 *
 * @example
 * const client = createClient({
 *   baseUrl: "http://127.0.0.1:4010",
 *   apiKey: process.env.MONITORING_API_KEY ?? "",
 *   accountId: "acct_1",
 * });
 * const incident = await client.incidents.update("inc_1", {
 *   name: "Checkout is slow",
 *   severity: "MAJOR",
 *   services: [{ id: "svc_checkout", name: "Checkout", accountId: "acct_1" }],
 * });
 */
export function createClient(options: ClientOptions): MonitoringClient {
  const resolved = resolveOptions(options);
  const transport = createTransport(resolved);
  const visible = {
    baseUrl: resolved.baseUrl,
    accountId: resolved.accountId,
    apiKey: "[redacted]",
  };
  const client = {
    incidents: createIncidentsApi(transport, resolved.limits.maxPages),
    services: createServicesApi(transport, resolved.limits.maxPages),
    statusPages: createStatusPagesApi(transport, resolved.limits.maxPages),
    heartbeats: createHeartbeatsApi(transport, resolved.limits.maxPages),
    errorGroups: createErrorGroupsApi(transport, resolved.concurrency, resolved.limits.maxPages),
    checks: createChecksApi(transport, resolved.limits.maxPages),
    maintenanceWindows: createMaintenanceWindowsApi(transport, resolved.limits.maxPages),
  };
  Object.defineProperties(client, {
    [inspect.custom]: {
      value: (_depth: number, inspectOptions: object) =>
        `MonitoringClient ${inspect(visible, inspectOptions)}`,
    },
    toJSON: { value: () => visible },
  });
  return Object.freeze(client);
}
