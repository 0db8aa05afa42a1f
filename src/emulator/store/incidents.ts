import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type {
  IncidentCreateRequest,
  IncidentList,
  IncidentRequest,
  IncidentResponse,
  IncidentStatus,
  IncidentUpdate,
  IncidentUpdateRequest,
  ServiceRef,
  Severity,
} from "../../api/schemas";
import { DEFAULT_PUT_STATUS, type PutStatus } from "../behaviour";
import { statement, transaction } from "../database";
import { ErrorResponse, notFound } from "../http-error";
import { toIso } from "../time";
import type { AccountStore } from "./accounts";

/** Spec 4.2: the list of updates holds the 100 latest. */
export const INCIDENT_UPDATES_LIMIT = 100;

export interface NewIncidentUpdate {
  description: string;
  status?: IncidentStatus | undefined;
  notifySubscribers?: boolean | undefined;
  /** When it was posted. */
  atMs: number;
  /** The date customers see, when it was backfilled; else `atMs`. */
  publicMs?: number | undefined;
}

/** An update sent to every subscriber of the status page (`notifySubscribers: true`). */
export interface Notification {
  incidentId: string;
  updateId: string;
  description: string;
  status: IncidentStatus | null;
  sentAt: string;
}

/** The incident list's page size when the request gives none (the public reference). */
export const INCIDENTS_PAGE_DEFAULT = 20;

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

/** Incidents, the services they affect and their updates. */
export class IncidentStore {
  constructor(
    private readonly db: DatabaseSync,
    private readonly accounts: AccountStore,
  ) {}

  exists(accountId: string, incidentId: string): boolean {
    return (
      statement(this.db, "SELECT 1 FROM incidents WHERE account_id = ? AND id = ?").get(
        accountId,
        incidentId,
      ) !== undefined
    );
  }

  private requireIncident(accountId: string, incidentId: string): void {
    if (!this.exists(accountId, incidentId)) throw notFound("incident", incidentId);
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
    this.replaceServices(accountId, seed.id, seed.serviceIds);
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
    return transaction(this.db, () =>
      this.updateInTransaction(accountId, incidentId, body, nowMs, putStatus),
    );
  }

  private updateInTransaction(
    accountId: string,
    incidentId: string,
    body: IncidentRequest,
    nowMs: number,
    putStatus: PutStatus,
  ): IncidentResponse {
    const currentStatus = this.currentStatus(accountId, incidentId);
    const serviceIds = this.checkServices(accountId, body.services);
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
    this.replaceServices(accountId, incidentId, serviceIds);
    if (nextStatus !== currentStatus && putStatus === "posts-update") {
      this.postStatusChange(accountId, incidentId, nextStatus, nowMs);
    }
    return this.render(accountId, incidentId);
  }

  /**
   * An edit in the status page UI: name, severity and services change without an update;
   * a changed status posts `Status changed to <STATUS>` as a PUT does. `updated_at`
   * moves to the time of the edit when anything changed.
   */
  edit(accountId: string, incidentId: string, edit: IncidentEdit): IncidentResponse {
    return transaction(this.db, () => {
      const currentStatus = this.currentStatus(accountId, incidentId);
      const serviceIds =
        edit.serviceIds === undefined
          ? undefined
          : this.requireServices(accountId, edit.serviceIds);
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
      if (serviceIds !== undefined) this.replaceServices(accountId, incidentId, serviceIds);
      if (edit.status !== undefined && edit.status !== currentStatus) {
        this.postStatusChange(accountId, incidentId, edit.status, edit.atMs);
      }
      return this.render(accountId, incidentId);
    });
  }

  private currentStatus(accountId: string, incidentId: string): IncidentStatus {
    const current = statement(
      this.db,
      "SELECT last_update_status FROM incidents WHERE account_id = ? AND id = ?",
    ).get(accountId, incidentId);
    if (current === undefined) throw notFound("incident", incidentId);
    return String(current.last_update_status) as IncidentStatus;
  }

  /**
   * `POST /v1/status-pages/incidents`: a new incident, its id a GUID the service picks, with
   * exactly one update (the schema's rule). Its status is `lastUpdateStatus` when sent, else
   * the update's, else INVESTIGATING. One transaction, so a crash never leaves half of it.
   */
  create(accountId: string, body: IncidentCreateRequest, nowMs: number): IncidentResponse {
    return transaction(this.db, () => {
      const serviceIds = this.checkServices(accountId, body.services);
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
      this.insertUpdate(accountId, id, updateOfRequest(first, nowMs));
      return this.render(accountId, id);
    });
  }

  /** `GET /v1/status-pages/incidents/{incidentId}`. */
  get(accountId: string, incidentId: string): IncidentResponse {
    return this.render(accountId, incidentId);
  }

  /**
   * One page of the account's incidents, newest first, each with its updates. `nextId` is an
   * opaque cursor naming the first incident of the next page, so an incident created or
   * removed between two pages moves no other across the page boundary.
   */
  list(accountId: string, limit: number, cursor: string | undefined): IncidentList {
    const from = cursor === undefined ? undefined : decodeCursor(cursor);
    const rows = statement(
      this.db,
      `SELECT id, created_ms FROM incidents WHERE account_id = ?
         AND (? IS NULL OR created_ms < ? OR (created_ms = ? AND id <= ?))
         ORDER BY created_ms DESC, id DESC LIMIT ?`,
    ).all(
      accountId,
      from === undefined ? null : 1,
      from?.createdMs ?? 0,
      from?.createdMs ?? 0,
      from?.id ?? "",
      limit + 1,
    );
    const page = rows.slice(0, limit).map((row) => this.render(accountId, String(row.id)));
    const next = rows[limit];
    return {
      length: page.length,
      entries: page,
      nextId: next === undefined ? null : encodeCursor(Number(next.created_ms), String(next.id)),
    };
  }

  /** `DELETE /v1/status-pages/incidents/{incidentId}`: the incident and all its updates. */
  remove(accountId: string, incidentId: string): void {
    transaction(this.db, () => {
      this.requireIncident(accountId, incidentId);
      for (const table of ["incident_updates", "incident_services"]) {
        statement(this.db, `DELETE FROM ${table} WHERE account_id = ? AND incident_id = ?`).run(
          accountId,
          incidentId,
        );
      }
      statement(this.db, "DELETE FROM incidents WHERE account_id = ? AND id = ?").run(
        accountId,
        incidentId,
      );
    });
  }

  /** `POST …/incident-updates`: as `appendUpdate`, from the public API's body. */
  postUpdate(
    accountId: string,
    incidentId: string,
    body: IncidentUpdateRequest,
    nowMs: number,
  ): IncidentUpdate {
    return transaction(this.db, () =>
      this.appendUpdate(accountId, incidentId, updateOfRequest(body, nowMs)),
    );
  }

  /** `GET …/incident-updates/{incidentUpdateId}`. */
  getUpdate(accountId: string, incidentId: string, updateId: string): IncidentUpdate {
    this.requireIncident(accountId, incidentId);
    const row = statement(
      this.db,
      `SELECT id, description, status, notify_subscribers, created_ms, public_ms FROM incident_updates
         WHERE account_id = ? AND incident_id = ? AND id = ?`,
    ).get(accountId, incidentId, updateId);
    if (row === undefined) throw notFound("incident update", updateId);
    return renderUpdate(row);
  }

  /**
   * `PUT …/incident-updates/{incidentUpdateId}`: the update's text, status and public date
   * replaced in place. `notifySubscribers: true` sends it to the subscribers again. When it is
   * the newest update with a status, its status becomes the incident's.
   */
  changeUpdate(
    accountId: string,
    incidentId: string,
    updateId: string,
    body: IncidentUpdateRequest,
    nowMs: number,
  ): IncidentUpdate {
    return transaction(this.db, () => {
      const before = this.getUpdate(accountId, incidentId, updateId);
      statement(
        this.db,
        `UPDATE incident_updates SET description = ?, status = ?, public_ms = ?,
             notify_subscribers = MAX(notify_subscribers, ?)
           WHERE account_id = ? AND incident_id = ? AND id = ?`,
      ).run(
        body.description,
        body.status ?? null,
        body.publicIncidentUpdateDate === undefined
          ? Date.parse(before.publicIncidentUpdateDate ?? "") || null
          : Date.parse(body.publicIncidentUpdateDate),
        body.notifySubscribers === true ? 1 : 0,
        accountId,
        incidentId,
        updateId,
      );
      const after = this.getUpdate(accountId, incidentId, updateId);
      if (body.notifySubscribers === true) this.notify(accountId, incidentId, after, nowMs);
      const newest = this.listUpdates(accountId, incidentId).find((update) => update.status);
      if (newest?.id === updateId && body.status !== undefined) {
        statement(
          this.db,
          "UPDATE incidents SET last_update_status = ?, updated_ms = ? WHERE account_id = ? AND id = ?",
        ).run(body.status, nowMs, accountId, incidentId);
      }
      return after;
    });
  }

  /** `DELETE …/incident-updates/{incidentUpdateId}`. */
  removeUpdate(accountId: string, incidentId: string, updateId: string): void {
    transaction(this.db, () => {
      this.getUpdate(accountId, incidentId, updateId);
      statement(
        this.db,
        "DELETE FROM incident_updates WHERE account_id = ? AND incident_id = ? AND id = ?",
      ).run(accountId, incidentId, updateId);
    });
  }

  /** Every update sent to the subscribers of the account's status page, oldest first. */
  notifications(accountId: string): Notification[] {
    return statement(
      this.db,
      `SELECT incident_id, update_id, description, status, sent_ms FROM notifications
         WHERE account_id = ? ORDER BY seq`,
    )
      .all(accountId)
      .map((row) => ({
        incidentId: String(row.incident_id),
        updateId: String(row.update_id),
        description: String(row.description),
        status: row.status === null ? null : (String(row.status) as IncidentStatus),
        sentAt: toIso(Number(row.sent_ms)),
      }));
  }

  private notify(accountId: string, incidentId: string, update: IncidentUpdate, nowMs: number) {
    statement(
      this.db,
      `INSERT INTO notifications (account_id, incident_id, update_id, description, status, sent_ms)
         VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(accountId, incidentId, update.id ?? "", update.description, update.status ?? null, nowMs);
  }

  /** Every service object names the account the request acts for and a service of it. */
  private checkServices(accountId: string, services: readonly ServiceRef[]): string[] {
    services.forEach((service, index) => {
      if (service.accountId !== accountId) {
        throw new ErrorResponse(
          400,
          `body.services[${index}].accountId: must be the account the request acts for (${accountId}), not ${JSON.stringify(service.accountId)}`,
        );
      }
    });
    return this.requireServices(
      accountId,
      services.map((service) => service.id),
    );
  }

  /** The ids, each once; every one must be a service of the account (no auto-create: typos are caught). */
  private requireServices(accountId: string, ids: readonly string[]): string[] {
    const known = this.accounts.services(accountId, ids);
    const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
    if (unknown.length > 0) {
      const available = this.accounts.serviceIds(accountId);
      throw new ErrorResponse(
        400,
        `services: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a service" : "are not services"} of this account; known services: ${available.length > 0 ? available.join(", ") : "none"}`,
      );
    }
    return [...new Set(ids)];
  }

  private postStatusChange(
    accountId: string,
    incidentId: string,
    status: IncidentStatus,
    atMs: number,
  ): void {
    this.insertUpdate(accountId, incidentId, {
      description: `Status changed to ${status}`,
      status,
      atMs,
    });
  }

  /**
   * Appends an update as if a person posted it in the UI. An update with a status also
   * becomes the incident's `lastUpdateStatus`.
   */
  appendUpdate(accountId: string, incidentId: string, update: NewIncidentUpdate): IncidentUpdate {
    this.requireIncident(accountId, incidentId);
    const created = this.insertUpdate(accountId, incidentId, update);
    if (update.status !== undefined) {
      statement(
        this.db,
        "UPDATE incidents SET last_update_status = ?, updated_ms = ? WHERE account_id = ? AND id = ?",
      ).run(update.status, update.atMs, accountId, incidentId);
    }
    return created;
  }

  /** Seeds an update without touching the incident's status. */
  insertUpdate(accountId: string, incidentId: string, update: NewIncidentUpdate): IncidentUpdate {
    const id = randomUUID();
    const notify = update.notifySubscribers === true ? 1 : 0;
    statement(
      this.db,
      `INSERT INTO incident_updates (id, account_id, incident_id, description, status, notify_subscribers, created_ms, public_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      accountId,
      incidentId,
      update.description,
      update.status ?? null,
      notify,
      update.atMs,
      update.publicMs ?? null,
    );
    const created = renderUpdate({
      id,
      description: update.description,
      status: update.status ?? null,
      notify_subscribers: notify,
      created_ms: update.atMs,
      public_ms: update.publicMs ?? null,
    });
    if (notify === 1) this.notify(accountId, incidentId, created, update.atMs);
    return created;
  }

  /** Spec 4.2: the 100 latest updates, newest first (ties: the later insert first). */
  listUpdates(accountId: string, incidentId: string): IncidentUpdate[] {
    this.requireIncident(accountId, incidentId);
    return statement(
      this.db,
      `SELECT id, description, status, notify_subscribers, created_ms, public_ms FROM incident_updates
         WHERE account_id = ? AND incident_id = ? ORDER BY created_ms DESC, seq DESC LIMIT ?`,
    )
      .all(accountId, incidentId, INCIDENT_UPDATES_LIMIT)
      .map(renderUpdate);
  }

  /** The incident as the update operation answers it (spec 2.2). */
  render(accountId: string, incidentId: string): IncidentResponse {
    const row = statement(this.db, "SELECT * FROM incidents WHERE account_id = ? AND id = ?").get(
      accountId,
      incidentId,
    );
    if (row === undefined) throw notFound("incident", incidentId);
    const serviceIds = statement(
      this.db,
      "SELECT service_id FROM incident_services WHERE account_id = ? AND incident_id = ? ORDER BY position",
    )
      .all(accountId, incidentId)
      .map((service) => String(service.service_id));
    const services = this.accounts.services(accountId, serviceIds);
    const incident: IncidentResponse = {
      id: String(row.id),
      name: String(row.name),
      severity: String(row.severity) as Severity,
      services: serviceIds.map((id) => services.get(id) ?? { id, accountId }),
      incidentUpdates: this.listUpdates(accountId, incidentId),
      lastUpdateStatus: String(row.last_update_status) as IncidentStatus,
      created_at: toIso(Number(row.created_ms)),
      duration: row.duration === null ? null : Number(row.duration),
    };
    if (row.updated_ms !== null) incident.updated_at = toIso(Number(row.updated_ms));
    return incident;
  }

  private replaceServices(accountId: string, incidentId: string, serviceIds: readonly string[]) {
    statement(
      this.db,
      "DELETE FROM incident_services WHERE account_id = ? AND incident_id = ?",
    ).run(accountId, incidentId);
    const insert = statement(
      this.db,
      "INSERT INTO incident_services (account_id, incident_id, position, service_id) VALUES (?, ?, ?, ?)",
    );
    serviceIds.forEach((serviceId, position) => {
      insert.run(accountId, incidentId, position, serviceId);
    });
  }
}

function renderUpdate(row: Record<string, unknown>): IncidentUpdate {
  const createdAt = toIso(Number(row.created_ms));
  const update: IncidentUpdate = {
    id: String(row.id),
    description: String(row.description),
    publicIncidentUpdateDate:
      row.public_ms === null || row.public_ms === undefined
        ? createdAt
        : toIso(Number(row.public_ms)),
    created_at: createdAt,
    notifySubscribers: Number(row.notify_subscribers) === 1,
  };
  if (row.status !== null && row.status !== undefined) {
    update.status = String(row.status) as IncidentStatus;
  }
  return update;
}

/** An update of the public API's body, posted at `nowMs`. */
function updateOfRequest(body: IncidentUpdateRequest, nowMs: number): NewIncidentUpdate {
  return {
    description: body.description,
    status: body.status,
    notifySubscribers: body.notifySubscribers,
    atMs: nowMs,
    publicMs:
      body.publicIncidentUpdateDate === undefined
        ? undefined
        : Date.parse(body.publicIncidentUpdateDate),
  };
}

function encodeCursor(createdMs: number, id: string): string {
  return Buffer.from(`${createdMs}:${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdMs: number; id: string } {
  const text = Buffer.from(cursor, "base64url").toString();
  const at = text.indexOf(":");
  const createdMs = Number(text.slice(0, at));
  if (at < 1 || !Number.isSafeInteger(createdMs)) {
    throw new ErrorResponse(
      400,
      "nextId: not a cursor of this list; pass the nextId of the page before",
    );
  }
  return { createdMs, id: text.slice(at + 1) };
}
