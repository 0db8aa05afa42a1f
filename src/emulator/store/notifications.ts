import type { DatabaseSync } from "node:sqlite";
import type { IncidentStatus, IncidentUpdate, MaintenanceStatus } from "../../api/schemas";
import type { MaintenanceNotice } from "../control-schemas";
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

/** A maintenance notification as the store records it (`MaintenanceNotice` without its time). */
export type NewMaintenanceNotice = Omit<MaintenanceNotice, "sentAt">;

/**
 * What reached the subscribers' inboxes, for tests to count: each sending of an incident
 * update, and each maintenance reminder, start, end and update.
 */
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

  recordMaintenance(accountId: string, notice: NewMaintenanceNotice, sentMs: number): void {
    statement(
      this.db,
      `INSERT INTO maintenance_notifications (account_id, window_id, window_name, maintenance_id,
           kind, update_id, message, status, minutes_before, sent_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      accountId,
      notice.maintenanceWindowId,
      notice.maintenanceWindowName,
      notice.maintenanceId,
      notice.kind,
      notice.updateId,
      notice.message,
      notice.status,
      notice.minutesBefore,
      sentMs,
    );
  }

  /** Every maintenance notification sent to the account's subscribers, in the order sent. */
  listMaintenance(accountId: string): MaintenanceNotice[] {
    return statement(
      this.db,
      `SELECT * FROM maintenance_notifications WHERE account_id = ? ORDER BY sent_ms, seq`,
    )
      .all(accountId)
      .map((row) => ({
        kind: String(row.kind) as MaintenanceNotice["kind"],
        maintenanceWindowId: Number(row.window_id),
        maintenanceWindowName: String(row.window_name),
        maintenanceId: String(row.maintenance_id),
        updateId: row.update_id === null ? null : String(row.update_id),
        message: row.message === null ? null : String(row.message),
        status: row.status === null ? null : (String(row.status) as MaintenanceStatus),
        minutesBefore: row.minutes_before === null ? null : Number(row.minutes_before),
        sentAt: toIso(Number(row.sent_ms)),
      }));
  }
}
