import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type { Service, ServiceList } from "../../api/schemas";
import type { Behaviour, DuplicateAnswer } from "../behaviour";
import { statement, transaction } from "../database";
import { ErrorResponse, notFound } from "../http-error";
import { toIso } from "../time";
import { type ListedRows, listPage } from "./list-cursor";
import { rewriteVisibility, windowsNaming } from "./maintenance-rows";

/** The services list's page size when the request gives none (the public reference). */
export const SERVICES_PAGE_DEFAULT = 20;

const COLUMNS = "id, name, created_ms, updated_ms";
const LISTED: ListedRows = { table: "services", columns: COLUMNS, newestFirst: false };

/** Where the reference is silent, what a write of a service does (see behaviour.ts). */
export type ServiceWriteRules = Pick<
  Behaviour,
  "duplicateAnswer" | "serviceNames" | "serviceInUse"
>;

/** A duplicate refused as `duplicateAnswer` says: 400, or 409 Conflict. */
export function duplicateRefusal(answer: DuplicateAnswer, message: string): ErrorResponse {
  return new ErrorResponse(answer === "conflict" ? 409 : 400, message);
}

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

  /** `POST /v1/status-pages/services`: a new service, its id a GUID the service picks. */
  create(accountId: string, name: string, nowMs: number, rules: ServiceWriteRules): Service {
    return transaction(this.db, () => {
      this.refuseTakenName(accountId, name, undefined, rules);
      const id = randomUUID();
      this.upsert(accountId, id, name, nowMs);
      return this.get(accountId, id);
    });
  }

  /** `PUT /v1/status-pages/services/{serviceId}`: its name; incidents and cards show the new one. */
  rename(
    accountId: string,
    serviceId: string,
    name: string,
    nowMs: number,
    rules: ServiceWriteRules,
  ): Service {
    return transaction(this.db, () => {
      this.get(accountId, serviceId);
      this.refuseTakenName(accountId, name, serviceId, rules);
      this.upsert(accountId, serviceId, name, nowMs);
      return this.get(accountId, serviceId);
    });
  }

  /**
   * `DELETE /v1/status-pages/services/{serviceId}`. One still named is refused (409) or removed
   * (`serviceInUse`): then cards and maintenance windows drop it and incidents show its id
   * alone (a window left naming it would refuse every later PUT).
   */
  remove(accountId: string, serviceId: string, rules: ServiceWriteRules): void {
    transaction(this.db, () => {
      this.get(accountId, serviceId);
      const users = this.users(accountId, serviceId);
      if (users.length > 0 && rules.serviceInUse === "refused") {
        throw new ErrorResponse(
          409,
          `service ${serviceId} is still named by ${users.join(", ")}: take it out of them first`,
        );
      }
      for (const window of windowsNaming(this.db, accountId, "serviceIds", serviceId)) {
        const { statusPageIds, serviceIds } = window.stored.statusPageVisibility;
        const kept = serviceIds.filter((id) => id !== serviceId);
        rewriteVisibility(this.db, accountId, window, { statusPageIds, serviceIds: kept });
      }
      statement(
        this.db,
        "DELETE FROM status_page_card_services WHERE account_id = ? AND service_id = ?",
      ).run(accountId, serviceId);
      statement(this.db, "DELETE FROM services WHERE account_id = ? AND id = ?").run(
        accountId,
        serviceId,
      );
    });
  }

  /**
   * What names the service: `incident <id>`, `card <name> of status page <id>` and
   * `maintenance window <id>`, sorted.
   */
  private users(accountId: string, serviceId: string): string[] {
    const incidents = statement(
      this.db,
      "SELECT DISTINCT incident_id FROM incident_services WHERE account_id = ? AND service_id = ?",
    )
      .all(accountId, serviceId)
      .map((row) => `incident ${String(row.incident_id)}`);
    const cards = statement(
      this.db,
      `SELECT DISTINCT c.name, c.status_page_id FROM status_page_card_services s
         JOIN status_page_cards c ON c.account_id = s.account_id AND c.id = s.card_id
         WHERE s.account_id = ? AND s.service_id = ?`,
    )
      .all(accountId, serviceId)
      .map((row) => `card ${String(row.name)} of status page ${String(row.status_page_id)}`);
    const windows = windowsNaming(this.db, accountId, "serviceIds", serviceId).map(
      (window) => `maintenance window ${window.id}`,
    );
    return [...incidents.sort(), ...cards.sort(), ...windows];
  }

  private refuseTakenName(
    accountId: string,
    name: string,
    self: string | undefined,
    rules: ServiceWriteRules,
  ): void {
    if (rules.serviceNames !== "unique") return;
    const taken = statement(
      this.db,
      "SELECT id FROM services WHERE account_id = ? AND name = ? AND id IS NOT ?",
    ).get(accountId, name, self ?? null);
    if (taken !== undefined) {
      throw duplicateRefusal(
        rules.duplicateAnswer,
        `name: service ${String(taken.id)} is already named ${JSON.stringify(name)}`,
      );
    }
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
