import type { DatabaseSync } from "node:sqlite";
import { AccountStore } from "./accounts";
import { CheckStore } from "./checks";
import { ErrorGroupStore } from "./error-groups";
import { HeartbeatStore } from "./heartbeats";
import { IncidentServices } from "./incident-services";
import { IncidentUpdateStore } from "./incident-updates";
import { IncidentStore } from "./incidents";
import { MaintenanceWindowStore } from "./maintenance-windows";
import { NotificationStore } from "./notifications";
import { ServiceStore } from "./services";
import { StatusPageStore } from "./status-pages";

export type { CheckKind, HeartbeatSettings } from "./accounts";
export { CHECKS_PAGE_DEFAULT, type ChecksFilter } from "./checks";
export type { NewCheckResult, RecordedResult } from "./error-groups";
export { deriveEvents, MISSED_PING_USER_AGENT } from "./heartbeat-events";
export type { EventsWindow, NewPing } from "./heartbeats";
export type { NewIncidentUpdate } from "./incident-updates";
export { INCIDENT_UPDATES_LIMIT } from "./incident-updates";
export { INCIDENTS_PAGE_DEFAULT } from "./incidents";
export { AUTOMATIC_MESSAGES } from "./maintenance-scheduler";
export {
  MAINTENANCE_WINDOWS_PAGE_DEFAULT,
  MAINTENANCES_PAGE_DEFAULT,
} from "./maintenance-windows";
export type { Notification } from "./notifications";
export { SERVICES_PAGE_DEFAULT } from "./services";
export { STATUS_PAGES_PAGE_DEFAULT, type StatusPageSeed } from "./status-pages";

/** Every store of one emulator, sharing one database connection. */
export interface Stores {
  db: DatabaseSync;
  accounts: AccountStore;
  /** The checks as the checks list shows them (their kinds and names are the accounts'). */
  checks: CheckStore;
  services: ServiceStore;
  statusPages: StatusPageStore;
  incidents: IncidentStore;
  /** The incidents' updates. */
  updates: IncidentUpdateStore;
  /** What reached the subscribers. */
  notifications: NotificationStore;
  /** Maintenance windows, their maintenances and updates, and the scheduler that runs them. */
  maintenanceWindows: MaintenanceWindowStore;
  heartbeats: HeartbeatStore;
  errorGroups: ErrorGroupStore;
}

export function createStores(db: DatabaseSync): Stores {
  const accounts = new AccountStore(db);
  const services = new ServiceStore(db);
  const notifications = new NotificationStore(db);
  const updates = new IncidentUpdateStore(db, notifications);
  const statusPages = new StatusPageStore(db, services);
  return {
    db,
    accounts,
    checks: new CheckStore(db),
    services,
    statusPages,
    incidents: new IncidentStore(db, new IncidentServices(db, services), updates),
    updates,
    notifications,
    maintenanceWindows: new MaintenanceWindowStore(db, statusPages, notifications),
    heartbeats: new HeartbeatStore(db, accounts),
    errorGroups: new ErrorGroupStore(db, accounts),
  };
}
