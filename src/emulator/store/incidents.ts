import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type {
  IncidentCreateRequest,
  IncidentList,
  IncidentRequest,
  IncidentResponse,
  IncidentStatus,
  Severity,
} from "../../api/schemas";
import { DEFAULT_PUT_STATUS, type PutStatus } from "../behaviour";
import { statement, transaction } from "../database";
import { ErrorResponse, notFound } from "../http-error";
import { toIso } from "../time";
import { incidentExists, incidentStatus, requireIncident } from "./incident-row";
import type { IncidentServices } from "./incident-services";
import { type IncidentUpdateStore, updateOfRequest } from "./incident-updates";
import { type ListedRows, listPage } from "./list-cursor";

/** The incident list's page size when the request gives none (the public reference). */
export const INCIDENTS_PAGE_DEFAULT = 20;

const LISTED: ListedRows = { table: "incidents", columns: "id, created_ms", newestFirst: true };

/** An edit made in the status page UI; members left out stay as they are. */
export interface IncidentEdit {
  name?: string | undefined;
  severity?: Severity | undefined;
  serviceIds?: readonly string[] | undefined;
  status?: IncidentStatus | undefined;
  atMs: number;
}

export interface IncidentSeed {
  id: string;
  name: string;
  severity: Severity;
  lastUpdateStatus: IncidentStatus;
  serviceIds: readonly string[];
  duration: number | null;
  createdMs: number;
}

/** Incidents: their fields, the services they affect, and (through `updates`) what they tell. */
export class IncidentStore {
  constructor(
    private readonly db: DatabaseSync,
    private readonly services: IncidentServices,
    private readonly updates: IncidentUpdateStore,
  ) {}

  exists(accountId: string, incidentId: string): boolean {
    return incidentExists(this.db, accountId, incidentId);
  }

  /** Creates or replaces an incident (seed and control API); updates are left alone. */
  upsert(accountId: string, seed: IncidentSeed): void {
    statement(
      this.db,
      `INSERT INTO incidents (account_id, id, name, severity, last_update_status, duration, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (account_id, id) DO UPDATE SET name = excluded.name, severity = excluded.severity,
           last_update_status = excluded.last_update_status, duration = excluded.duration`,
    ).run(
      accountId,
      seed.id,
      seed.name,
      seed.severity,
      seed.lastUpdateStatus,
      seed.duration,
      seed.createdMs,
    );
    this.services.replace(accountId, seed.id, seed.serviceIds);
  }

  /**
   * PUT semantics: name, severity, services, duration (when sent) and `lastUpdateStatus`
   * (when sent) are replaced and `updated_at` is set. `id`, `created_at` and `updated_at`
   * in the body are server-owned and ignored. Every service object names the account the
   * request acts for. With `posts-update`, a changed status appends an update saying so; with
   * `sets-field` it only sets the field; with `ignores` the status stays as it was (the service
   * does not document which it does).
   */
  update(
    accountId: string,
    incidentId: string,
    body: IncidentRequest,
    nowMs: number,
    putStatus: PutStatus = DEFAULT_PUT_STATUS,
  ): IncidentResponse {
    // One transaction: one fsync per PUT, and a crash never leaves half an update.
    return transaction(this.db, () => {
      const currentStatus = incidentStatus(this.db, accountId, incidentId);
      const serviceIds = this.services.check(accountId, body.services);
      const nextStatus =
        putStatus === "ignores" ? currentStatus : (body.lastUpdateStatus ?? currentStatus);
      statement(
        this.db,
        `UPDATE incidents SET name = ?, severity = ?, last_update_status = ?, updated_ms = ?,
             duration = CASE WHEN ? THEN ? ELSE duration END
           WHERE account_id = ? AND id = ?`,
      ).run(
        body.name,
        body.severity,
        nextStatus,
        nowMs,
        body.duration !== undefined ? 1 : 0,
        body.duration ?? null,
        accountId,
        incidentId,
      );
      this.services.replace(accountId, incidentId, serviceIds);
      if (nextStatus !== currentStatus && putStatus === "posts-update") {
        this.postStatusChange(accountId, incidentId, nextStatus, nowMs);
      }
      return this.render(accountId, incidentId);
    });
  }

  /**
   * An edit in the status page UI: name, severity and services change without an update;
   * a changed status posts `Status changed to <STATUS>` as a PUT does. `updated_at`
   * moves to the time of the edit when anything changed.
   */
  edit(accountId: string, incidentId: string, edit: IncidentEdit): IncidentResponse {
    return transaction(this.db, () => {
      const currentStatus = incidentStatus(this.db, accountId, incidentId);
      const serviceIds =
        edit.serviceIds === undefined
          ? undefined
          : this.services.require(accountId, edit.serviceIds);
      const changed =
        edit.name !== undefined ||
        edit.severity !== undefined ||
        serviceIds !== undefined ||
        (edit.status !== undefined && edit.status !== currentStatus);
      if (!changed) return this.render(accountId, incidentId);
      statement(
        this.db,
        `UPDATE incidents SET name = COALESCE(?, name), severity = COALESCE(?, severity),
             last_update_status = COALESCE(?, last_update_status), updated_ms = ?
           WHERE account_id = ? AND id = ?`,
      ).run(
        edit.name ?? null,
        edit.severity ?? null,
        edit.status ?? null,
        edit.atMs,
        accountId,
        incidentId,
      );
      if (serviceIds !== undefined) this.services.replace(accountId, incidentId, serviceIds);
      if (edit.status !== undefined && edit.status !== currentStatus) {
        this.postStatusChange(accountId, incidentId, edit.status, edit.atMs);
      }
      return this.render(accountId, incidentId);
    });
  }

  /**
   * `POST /v1/status-pages/incidents`: a new incident, its id a GUID the service picks, with
   * exactly one update (the schema's rule). Its status is `lastUpdateStatus` when sent, else
   * the update's, else INVESTIGATING. One transaction, so a crash never leaves half of it.
   */
  create(accountId: string, body: IncidentCreateRequest, nowMs: number): IncidentResponse {
    return transaction(this.db, () => {
      const serviceIds = this.services.check(accountId, body.services);
      const [first] = body.incidentUpdates;
      if (first === undefined) throw new ErrorResponse(400, "incidentUpdates: needs one update");
      const id = randomUUID();
      this.upsert(accountId, {
        id,
        name: body.name,
        severity: body.severity,
        lastUpdateStatus: body.lastUpdateStatus ?? first.status ?? "INVESTIGATING",
        serviceIds,
        duration: body.duration ?? null,
        createdMs: nowMs,
      });
      this.updates.insert(accountId, id, updateOfRequest(first, nowMs));
      return this.render(accountId, id);
    });
  }

  /** `GET /v1/status-pages/incidents/{incidentId}`. */
  get(accountId: string, incidentId: string): IncidentResponse {
    return this.render(accountId, incidentId);
  }

  /**
   * One page of the account's incidents, newest first, each with its updates (`nextId`: see
   * list-cursor.ts).
   */
  list(accountId: string, limit: number, cursor: string | undefined): IncidentList {
    return listPage(this.db, LISTED, accountId, { limit, cursor }, (row) =>
      this.render(accountId, String(row.id)),
    );
  }

  /** `DELETE /v1/status-pages/incidents/{incidentId}`: the incident and all its updates. */
  remove(accountId: string, incidentId: string): void {
    transaction(this.db, () => {
      requireIncident(this.db, accountId, incidentId);
      this.updates.removeAll(accountId, incidentId);
      this.services.removeAll(accountId, incidentId);
      statement(this.db, "DELETE FROM incidents WHERE account_id = ? AND id = ?").run(
        accountId,
        incidentId,
      );
    });
  }

  private postStatusChange(
    accountId: string,
    incidentId: string,
    status: IncidentStatus,
    atMs: number,
  ): void {
    this.updates.insert(accountId, incidentId, {
      description: `Status changed to ${status}`,
      status,
      atMs,
    });
  }

  /** The incident as the update operation answers it (spec 2.2). */
  render(accountId: string, incidentId: string): IncidentResponse {
    const row = statement(this.db, "SELECT * FROM incidents WHERE account_id = ? AND id = ?").get(
      accountId,
      incidentId,
    );
    if (row === undefined) throw notFound("incident", incidentId);
    const incident: IncidentResponse = {
      id: String(row.id),
      name: String(row.name),
      severity: String(row.severity) as Severity,
      services: this.services.of(accountId, incidentId),
      incidentUpdates: this.updates.list(accountId, incidentId),
      lastUpdateStatus: String(row.last_update_status) as IncidentStatus,
      created_at: toIso(Number(row.created_ms)),
      duration: row.duration === null ? null : Number(row.duration),
    };
    if (row.updated_ms !== null) incident.updated_at = toIso(Number(row.updated_ms));
    return incident;
  }
}
