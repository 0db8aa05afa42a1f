import type { DatabaseSync } from "node:sqlite";
import type { Service, ServiceList } from "../../api/schemas";
import { statement } from "../database";
import { notFound } from "../http-error";
import { toIso } from "../time";
import { type ListedRows, listPage } from "./list-cursor";

/** The services list's page size when the request gives none (the public reference). */
export const SERVICES_PAGE_DEFAULT = 20;

const COLUMNS = "id, name, created_ms, updated_ms";
const LISTED: ListedRows = { table: "services", columns: COLUMNS, newestFirst: false };

/** The account's services: what its incidents affect and its status pages' cards show. */
export class ServiceStore {
  constructor(private readonly db: DatabaseSync) {}

  upsert(accountId: string, id: string, name: string, atMs: number): void {
    statement(
      this.db,
      `INSERT INTO services (account_id, id, name, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (account_id, id) DO UPDATE SET name = excluded.name, updated_ms = excluded.updated_ms`,
    ).run(accountId, id, name, atMs, atMs);
  }

  /** The services of an account by id, for validating and rendering incidents and cards. */
  byIds(accountId: string, ids: readonly string[]): Map<string, Service> {
    const found = new Map<string, Service>();
    const byId = statement(
      this.db,
      `SELECT ${COLUMNS} FROM services WHERE account_id = ? AND id = ?`,
    );
    for (const id of ids) {
      const row = byId.get(accountId, id);
      if (row !== undefined) found.set(id, renderService(accountId, row));
    }
    return found;
  }

  ids(accountId: string): string[] {
    return statement(this.db, "SELECT id FROM services WHERE account_id = ? ORDER BY id")
      .all(accountId)
      .map((row) => String(row.id));
  }

  /** `GET /v1/status-pages/services/{serviceId}`. */
  get(accountId: string, serviceId: string): Service {
    const service = this.byIds(accountId, [serviceId]).get(serviceId);
    if (service === undefined) throw notFound("service", serviceId);
    return service;
  }

  /** One page of the account's services, oldest first (`nextId`: see list-cursor.ts). */
  list(accountId: string, limit: number, cursor: string | undefined): ServiceList {
    return listPage(this.db, LISTED, accountId, { limit, cursor }, (row) =>
      renderService(accountId, row),
    );
  }
}

function renderService(accountId: string, row: Record<string, unknown>): Service {
  return {
    id: String(row.id),
    name: String(row.name),
    accountId,
    created_at: toIso(Number(row.created_ms)),
    updated_at: toIso(Number(row.updated_ms)),
  };
}
