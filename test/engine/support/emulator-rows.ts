import type { DatabaseSync } from "node:sqlite";

export interface IncidentRow {
  id: string;
  name: string;
  severity: string;
  status: string;
  services: string[];
}

/** The incidents of an account as the emulator stores them. */
export function incidentRows(db: DatabaseSync, accountId: string): Map<string, IncidentRow> {
  const rows = db
    .prepare(
      "SELECT id, name, severity, last_update_status AS status FROM incidents WHERE account_id = ?",
    )
    .all(accountId) as unknown as Omit<IncidentRow, "services">[];
  const services = db.prepare(
    "SELECT service_id AS id FROM incident_services WHERE account_id = ? AND incident_id = ? ORDER BY position",
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        ...row,
        services: (services.all(accountId, row.id) as { id: string }[]).map(
          (service) => service.id,
        ),
      },
    ]),
  );
}
