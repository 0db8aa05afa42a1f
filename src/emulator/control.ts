import type {
  ErrorGroup,
  IncidentResponse,
  IncidentStatus,
  IncidentUpdate,
  Severity,
} from "../api/schemas";
import type { Behaviour } from "./behaviour";
import type { ClockMove, ClockReading, EmulatorClock } from "./clock";
import type { MaintenanceNotice, Notification, RecordedResult } from "./control-schemas";
import { transaction } from "./database";
import type { FaultInjector, Faults, ResolvedFaults } from "./faults";
import { ErrorResponse } from "./http-error";
import type { RequestCounter, RequestStats } from "./request-stats";
import { applySeed, loadSeedFile, parseSeed } from "./seed";
import type { SeedFile } from "./seed-schema";
import type { Stores } from "./store";
import { parseSeedDuration, resolveInstant } from "./time";

/** When something happened: a Date, an ISO date-time, `now` or a relative time (`-2h`). */
export type Instant = Date | string;

/**
 * What tests and demos do to the emulator that the public API cannot: events that would
 * happen in the monitoring service itself. Every method is also a route of the control
 * API (`/_control/...`); each write is one transaction.
 */
export interface EmulatorControl {
  /** Posts an incident update as a person would in the UI; a status becomes the incident's. */
  appendIncidentUpdate(
    accountId: string,
    incidentId: string,
    update: {
      description: string;
      status?: IncidentStatus;
      notifySubscribers?: boolean;
      at?: Instant;
    },
  ): IncidentUpdate;
  /**
   * Edits an incident as a person would in the status page UI. Name, severity and services
   * (ids of the account's services) change without an update; a new status posts the
   * update `Status changed to <STATUS>` with that status, as a PUT does.
   */
  editIncident(
    accountId: string,
    incidentId: string,
    edit: {
      name?: string;
      severity?: Severity;
      services?: readonly string[];
      status?: IncidentStatus;
      at?: Instant;
    },
  ): IncidentResponse;
  /**
   * Every update sent to the account's subscribers (posted or changed with
   * `notifySubscribers: true`), oldest first: what reached their inboxes.
   */
  notifications(accountId: string): Notification[];
  /**
   * Every maintenance notification sent to the account's subscribers, in the order sent:
   * each reminder, automatic start and end, and update posted with `notifySubscribers: true`,
   * naming its window and maintenance. The scheduler catches up to the clock first.
   */
  maintenanceNotifications(accountId: string): MaintenanceNotice[];
  /** The emulator's clock: its now, and how far it stands from the real one. */
  readClock(): ClockReading;
  /**
   * Sets the emulator's clock to an instant (`{ at }`: ISO, `now` or relative such as `+2h`)
   * or moves it forward (`{ advanceMinutes }`), then lets the maintenance scheduler carry out
   * every reminder, start and end due by then, each once.
   */
  moveClock(move: ClockMove): ClockReading;
  /** Records one check result; an error joins (or starts) its error group. */
  recordCheckResult(
    accountId: string,
    checkId: string,
    result: { at?: Instant; error: string | null },
  ): RecordedResult;
  /** Records many check results in one transaction (fast: 10,000 in well under a second). */
  recordCheckResults(
    accountId: string,
    results: readonly { checkId: string; at?: Instant; error: string | null }[],
  ): RecordedResult[];
  /** Creates `count` distinct error groups for a check in one transaction. */
  generateErrorGroups(accountId: string, checkId: string, count: number, at?: Instant): number;
  /** Archives an error group until its next check result. */
  archiveErrorGroup(accountId: string, errorGroupId: string): ErrorGroup;
  /**
   * Records a heartbeat ping: `ok: true` arrived (RECEIVED, or EARLY), `ok: false` reports
   * FAILING; silence past the period is GRACE, past period + grace LATE (see `deriveEvents`).
   */
  recordHeartbeatPing(
    accountId: string,
    checkId: string,
    ping: { at?: Instant; ok: boolean; source?: string; userAgent?: string },
  ): { id: string };
  /** Creates or changes a heartbeat check: its name, period and grace (`15m`, `1d`). */
  configureHeartbeat(
    accountId: string,
    checkId: string,
    settings: { name?: string; period?: string | null; grace?: string },
  ): void;
  /** Adds a seed (object or file path, `demo` for the bundled one) to the data. */
  loadSeed(seed: SeedFile | string): void;
  /** Replaces the faults of the public API; `{}` turns them off. */
  setFaults(faults: Faults): ResolvedFaults;
  getFaults(): ResolvedFaults;
  /** Where the service's behaviour is unknown, the choice the emulator makes (see behaviour.ts). */
  getBehaviour(): Behaviour;
  /** Changes the members given; the others stay. */
  setBehaviour(next: Partial<Behaviour>): Behaviour;
  /** The public API requests since the start or the last `resetStats()`, by operation and status. */
  stats(): RequestStats;
  /** Starts counting from zero. */
  resetStats(): void;
}

export function createControl(
  stores: Stores,
  faults: FaultInjector,
  requests: RequestCounter,
  clock: EmulatorClock,
  behaviour: Behaviour,
): EmulatorControl {
  const now = clock.now;
  const catchUp = () =>
    stores.maintenanceWindows.advance(now().getTime(), behaviour.maintenanceOccurrences);
  const instant = (at: Instant | undefined): number => {
    if (at === undefined) return now().getTime();
    if (at instanceof Date) {
      const year = at.getUTCFullYear();
      if (Number.isNaN(year) || year < 0 || year > 9999) {
        throw new ErrorResponse(400, "at: must be a valid Date in the years 0000 to 9999");
      }
      return at.getTime();
    }
    const ms = resolveInstant(at, now());
    if (ms === undefined) {
      throw new ErrorResponse(
        400,
        `at: ${at} is not an ISO date-time, \`now\` or a relative time such as -2h`,
      );
    }
    return ms;
  };
  const requireAccount = (accountId: string) => {
    if (!stores.accounts.accountExists(accountId)) {
      throw new ErrorResponse(404, `account ${accountId} not found`);
    }
  };
  return {
    appendIncidentUpdate(accountId, incidentId, update) {
      requireAccount(accountId);
      return transaction(stores.db, () =>
        stores.updates.append(accountId, incidentId, {
          description: update.description,
          status: update.status,
          notifySubscribers: update.notifySubscribers,
          atMs: instant(update.at),
        }),
      );
    },
    editIncident(accountId, incidentId, edit) {
      requireAccount(accountId);
      return stores.incidents.edit(accountId, incidentId, {
        name: edit.name,
        severity: edit.severity,
        serviceIds: edit.services,
        status: edit.status,
        atMs: instant(edit.at),
      });
    },
    notifications(accountId) {
      requireAccount(accountId);
      return stores.notifications.list(accountId);
    },
    maintenanceNotifications(accountId) {
      requireAccount(accountId);
      catchUp();
      return stores.notifications.listMaintenance(accountId);
    },
    readClock: () => clock.read(),
    moveClock(move) {
      const reading = clock.move(move);
      catchUp();
      return reading;
    },
    recordCheckResult(accountId, checkId, result) {
      requireAccount(accountId);
      return transaction(stores.db, () =>
        stores.errorGroups.record(accountId, checkId, {
          atMs: instant(result.at),
          error: result.error,
        }),
      );
    },
    recordCheckResults(accountId, results) {
      requireAccount(accountId);
      return stores.errorGroups.recordMany(
        accountId,
        results.map((result) => ({
          checkId: result.checkId,
          atMs: instant(result.at),
          error: result.error,
        })),
      );
    },
    generateErrorGroups(accountId, checkId, count, at) {
      requireAccount(accountId);
      return stores.errorGroups.generate(accountId, checkId, count, instant(at));
    },
    archiveErrorGroup(accountId, errorGroupId) {
      requireAccount(accountId);
      return stores.errorGroups.archive(accountId, errorGroupId);
    },
    recordHeartbeatPing(accountId, checkId, ping) {
      requireAccount(accountId);
      return transaction(stores.db, () =>
        stores.heartbeats.recordPing(accountId, checkId, { ...ping, atMs: instant(ping.at) }),
      );
    },
    configureHeartbeat(accountId, checkId, settings) {
      requireAccount(accountId);
      transaction(stores.db, () => {
        stores.accounts.ensureCheck(accountId, checkId, "heartbeat", settings.name);
        const current = stores.accounts.heartbeatSettings(accountId, checkId);
        stores.accounts.setHeartbeatSettings(accountId, checkId, {
          periodMs:
            settings.period === undefined
              ? current.periodMs
              : settings.period === null
                ? null
                : (parseSeedDuration(settings.period) ?? null),
          graceMs:
            settings.grace === undefined
              ? current.graceMs
              : (parseSeedDuration(settings.grace) ?? 0),
        });
      });
    },
    loadSeed(seed) {
      const parsed =
        typeof seed === "string" ? loadSeedFile(seed) : parseSeed(seed, "the control API");
      applySeed(stores, parsed, now().getTime(), behaviour.maintenanceOccurrences);
    },
    setFaults: (next) => faults.set(next),
    getFaults: () => faults.get(),
    getBehaviour: () => ({ ...behaviour }),
    setBehaviour(next) {
      Object.assign(behaviour, next);
      return { ...behaviour };
    },
    stats: () => requests.snapshot(),
    resetStats: () => requests.reset(),
  };
}
