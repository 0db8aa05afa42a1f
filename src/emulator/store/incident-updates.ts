import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type { IncidentStatus, IncidentUpdate, IncidentUpdateRequest } from "../../api/schemas";
import type { EditDate } from "../behaviour";
import { statement, transaction } from "../database";
import { notFound } from "../http-error";
import { toIso } from "../time";
import { requireIncident, setIncidentStatus } from "./incident-row";
import type { NotificationStore } from "./notifications";

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

const COLUMNS = "id, description, status, notify_subscribers, created_ms, public_ms";

/** The updates of incidents: what customers read, and what reaches the subscribers. */
export class IncidentUpdateStore {
  constructor(
    private readonly db: DatabaseSync,
    private readonly notifications: NotificationStore,
  ) {}

  /** `POST …/incident-updates`: as `append`, from the public API's body. */
  post(
    accountId: string,
    incidentId: string,
    body: IncidentUpdateRequest,
    nowMs: number,
  ): IncidentUpdate {
    return transaction(this.db, () =>
      this.append(accountId, incidentId, updateOfRequest(body, nowMs)),
    );
  }

  /** `GET …/incident-updates/{incidentUpdateId}`. */
  get(accountId: string, incidentId: string, updateId: string): IncidentUpdate {
    requireIncident(this.db, accountId, incidentId);
    const row = statement(
      this.db,
      `SELECT ${COLUMNS} FROM incident_updates WHERE account_id = ? AND incident_id = ? AND id = ?`,
    ).get(accountId, incidentId, updateId);
    if (row === undefined) throw notFound("incident update", updateId);
    return renderUpdate(row);
  }

  /**
   * `PUT …/incident-updates/{incidentUpdateId}`: the update's text, status and public date
   * replaced in place; without a date, it keeps its own or is dated now (`editDate`).
   * `notifySubscribers: true` sends it to the subscribers again. When it is the newest update
   * with a status, its status becomes the incident's.
   */
  change(
    accountId: string,
    incidentId: string,
    updateId: string,
    body: IncidentUpdateRequest,
    nowMs: number,
    editDate: EditDate = "kept",
  ): IncidentUpdate {
    return transaction(this.db, () => {
      const before = this.get(accountId, incidentId, updateId);
      statement(
        this.db,
        `UPDATE incident_updates SET description = ?, status = ?, public_ms = ?,
             notify_subscribers = MAX(notify_subscribers, ?)
           WHERE account_id = ? AND incident_id = ? AND id = ?`,
      ).run(
        body.description,
        body.status ?? null,
        body.publicIncidentUpdateDate !== undefined
          ? Date.parse(body.publicIncidentUpdateDate)
          : editDate === "now"
            ? nowMs
            : Date.parse(before.publicIncidentUpdateDate ?? "") || null,
        body.notifySubscribers === true ? 1 : 0,
        accountId,
        incidentId,
        updateId,
      );
      const after = this.get(accountId, incidentId, updateId);
      if (body.notifySubscribers === true) {
        this.notifications.record(accountId, incidentId, after, nowMs);
      }
      const newest = this.list(accountId, incidentId).find((update) => update.status);
      if (newest?.id === updateId && body.status !== undefined) {
        setIncidentStatus(this.db, accountId, incidentId, body.status, nowMs);
      }
      return after;
    });
  }

  /** `DELETE …/incident-updates/{incidentUpdateId}`. */
  remove(accountId: string, incidentId: string, updateId: string): void {
    transaction(this.db, () => {
      this.get(accountId, incidentId, updateId);
      statement(
        this.db,
        "DELETE FROM incident_updates WHERE account_id = ? AND incident_id = ? AND id = ?",
      ).run(accountId, incidentId, updateId);
    });
  }

  /** Every update of an incident, with it (`DELETE …/incidents/{incidentId}`). */
  removeAll(accountId: string, incidentId: string): void {
    statement(this.db, "DELETE FROM incident_updates WHERE account_id = ? AND incident_id = ?").run(
      accountId,
      incidentId,
    );
  }

  /**
   * Appends an update as if a person posted it in the UI. An update with a status also
   * becomes the incident's `lastUpdateStatus`.
   */
  append(accountId: string, incidentId: string, update: NewIncidentUpdate): IncidentUpdate {
    requireIncident(this.db, accountId, incidentId);
    const created = this.insert(accountId, incidentId, update);
    if (update.status !== undefined) {
      setIncidentStatus(this.db, accountId, incidentId, update.status, update.atMs);
    }
    return created;
  }

  /** Seeds an update without touching the incident's status. */
  insert(accountId: string, incidentId: string, update: NewIncidentUpdate): IncidentUpdate {
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
    if (notify === 1) this.notifications.record(accountId, incidentId, created, update.atMs);
    return created;
  }

  /** Spec 4.2: the 100 latest updates, newest first (ties: the later insert first). */
  list(accountId: string, incidentId: string): IncidentUpdate[] {
    requireIncident(this.db, accountId, incidentId);
    return statement(
      this.db,
      `SELECT ${COLUMNS} FROM incident_updates
         WHERE account_id = ? AND incident_id = ? ORDER BY created_ms DESC, seq DESC LIMIT ?`,
    )
      .all(accountId, incidentId, INCIDENT_UPDATES_LIMIT)
      .map(renderUpdate);
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
export function updateOfRequest(body: IncidentUpdateRequest, nowMs: number): NewIncidentUpdate {
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
