import type { DatabaseSync } from "node:sqlite";
import type { Service, ServiceRef } from "../../api/schemas";
import { statement } from "../database";
import { ErrorResponse } from "../http-error";
import type { ServiceStore } from "./services";

/** Which services an incident affects, in the order they were sent: each a service of its account. */
export class IncidentServices {
  constructor(
    private readonly db: DatabaseSync,
    private readonly services: ServiceStore,
  ) {}

  /** Every service object names the account the request acts for and a service of it. */
  check(accountId: string, services: readonly ServiceRef[]): string[] {
    services.forEach((service, index) => {
      if (service.accountId !== accountId) {
        throw new ErrorResponse(
          400,
          `body.services[${index}].accountId: must be the account the request acts for (${accountId}), not ${JSON.stringify(service.accountId)}`,
        );
      }
    });
    return this.require(
      accountId,
      services.map((service) => service.id),
    );
  }

  /** The ids, each once; every one must be a service of the account (no auto-create: typos are caught). */
  require(accountId: string, ids: readonly string[]): string[] {
    const known = this.services.byIds(accountId, ids);
    const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
    if (unknown.length > 0) {
      const available = this.services.ids(accountId);
      throw new ErrorResponse(
        400,
        `services: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a service" : "are not services"} of this account; known services: ${available.length > 0 ? available.join(", ") : "none"}`,
      );
    }
    return [...new Set(ids)];
  }

  replace(accountId: string, incidentId: string, serviceIds: readonly string[]): void {
    this.removeAll(accountId, incidentId);
    const insert = statement(
      this.db,
      "INSERT INTO incident_services (account_id, incident_id, position, service_id) VALUES (?, ?, ?, ?)",
    );
    serviceIds.forEach((serviceId, position) => {
      insert.run(accountId, incidentId, position, serviceId);
    });
  }

  removeAll(accountId: string, incidentId: string): void {
    statement(
      this.db,
      "DELETE FROM incident_services WHERE account_id = ? AND incident_id = ?",
    ).run(accountId, incidentId);
  }

  /** The incident's services as an answer shows them; one since removed shows its id alone. */
  of(accountId: string, incidentId: string): Service[] {
    const ids = statement(
      this.db,
      "SELECT service_id FROM incident_services WHERE account_id = ? AND incident_id = ? ORDER BY position",
    )
      .all(accountId, incidentId)
      .map((service) => String(service.service_id));
    const services = this.services.byIds(accountId, ids);
    return ids.map((id) => services.get(id) ?? { id, accountId });
  }
}
