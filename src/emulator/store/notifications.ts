import type { DatabaseSync } from "node:sqlite";
import type { IncidentStatus, IncidentUpdate } from "../../api/schemas";
import { statement } from "../database";
import { toIso } from "../time";

/** An update sent to every subscriber of the status page (`notifySubscribers: true`). */
export interface Notification {
  incidentId: string;
  updateId: string;
  description: string;
  status: IncidentStatus | null;
  sentAt: string;
}

/** What reached the subscribers' inboxes: each sending of an update, for tests to count. */
export class NotificationStore {
  constructor(private readonly db: DatabaseSync) {}

  record(accountId: string, incidentId: string, update: IncidentUpdate, nowMs: number): void {
    statement(
      this.db,
      `INSERT INTO notifications (account_id, incident_id, update_id, description, status, sent_ms)
         VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(accountId, incidentId, update.id ?? "", update.description, update.status ?? null, nowMs);
  }

  /** Every update sent to the subscribers of the account's status page, oldest first. */
  list(accountId: string): Notification[] {
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
}
