import type { DatabaseSync } from "node:sqlite";
import { AccountStore } from "./accounts";
import { ErrorGroupStore } from "./error-groups";
import { HeartbeatStore } from "./heartbeats";
import { IncidentStore } from "./incidents";

export type { CheckKind, HeartbeatSettings } from "./accounts";
export type { NewCheckResult, RecordedResult } from "./error-groups";
export { deriveEvents, MISSED_PING_USER_AGENT } from "./heartbeat-events";
export type { EventsWindow, NewPing } from "./heartbeats";
export type { NewIncidentUpdate } from "./incidents";
export { INCIDENT_UPDATES_LIMIT } from "./incidents";

/** Every store of one emulator, sharing one database connection. */
export interface Stores {
  db: DatabaseSync;
  accounts: AccountStore;
  incidents: IncidentStore;
  heartbeats: HeartbeatStore;
  errorGroups: ErrorGroupStore;
}

export function createStores(db: DatabaseSync): Stores {
  const accounts = new AccountStore(db);
  return {
    db,
    accounts,
    incidents: new IncidentStore(db, accounts),
    heartbeats: new HeartbeatStore(db, accounts),
    errorGroups: new ErrorGroupStore(db, accounts),
  };
}
