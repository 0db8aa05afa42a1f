import type { DatabaseSync } from "node:sqlite";
import type { IncidentStatus } from "../../api/schemas";
import { statement } from "../database";
import { notFound } from "../http-error";

/*
 * The incident row as both the incident store and its updates' store read and set it: whether
 * it exists, and its status, which a new update with a status sets too.
 */

export function incidentExists(db: DatabaseSync, accountId: string, incidentId: string): boolean {
  return (
    statement(db, "SELECT 1 FROM incidents WHERE account_id = ? AND id = ?").get(
      accountId,
      incidentId,
    ) !== undefined
  );
}

/** Answers 404 for an incident the account does not have. */
export function requireIncident(db: DatabaseSync, accountId: string, incidentId: string): void {
  if (!incidentExists(db, accountId, incidentId)) throw notFound("incident", incidentId);
}

export function incidentStatus(
  db: DatabaseSync,
  accountId: string,
  incidentId: string,
): IncidentStatus {
  const current = statement(
    db,
    "SELECT last_update_status FROM incidents WHERE account_id = ? AND id = ?",
  ).get(accountId, incidentId);
  if (current === undefined) throw notFound("incident", incidentId);
  return String(current.last_update_status) as IncidentStatus;
}

/** Sets the incident's `lastUpdateStatus`, and its `updated_at` to `atMs`. */
export function setIncidentStatus(
  db: DatabaseSync,
  accountId: string,
  incidentId: string,
  status: IncidentStatus,
  atMs: number,
): void {
  statement(
    db,
    "UPDATE incidents SET last_update_status = ?, updated_ms = ? WHERE account_id = ? AND id = ?",
  ).run(status, atMs, accountId, incidentId);
}
