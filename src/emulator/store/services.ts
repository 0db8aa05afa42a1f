import type { DatabaseSync } from "node:sqlite";
import type { Service, ServiceList } from "../../api/schemas";
import { statement } from "../database";
import { notFound } from "../http-error";
import { toIso } from "../time";
import { decodeCursor, pageOf } from "./list-cursor";

/** The services list's page size when the request gives none (the public reference). */
export const SERVICES_PAGE_DEFAULT = 20;

const COLUMNS = "id, name, created_ms, updated_ms";

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
    const from = cursor === undefined ? undefined : decodeCursor(cursor);
    const rows = statement(
      this.db,
      `SELECT ${COLUMNS} FROM services WHERE account_id = ?
         AND (? IS NULL OR created_ms > ? OR (created_ms = ? AND id >= ?))
         ORDER BY created_ms, id LIMIT ?`,
    ).all(
      accountId,
      from === undefined ? null : 1,
      from?.createdMs ?? 0,
      from?.createdMs ?? 0,
      from?.id ?? "",
      limit + 1,
    );
    const page = pageOf(rows, limit);
    const entries = page.rows.map((row) => renderService(accountId, row));
    return { length: entries.length, entries, nextId: page.nextId };
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
