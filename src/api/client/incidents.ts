import { z } from "zod";
import { ROUTES } from "../routes";
import {
  type IncidentRequest,
  type IncidentResponse,
  type IncidentUpdate,
  PathId,
} from "../schemas";
import { checkRequest, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** Status-page incidents (spec 4.1 and 4.2). */
export interface IncidentsApi {
  /**
   * Replaces the incident's state: `PUT /v1/status-pages/incidents/{incidentId}`.
   * Idempotent (the full state is sent), so it is retried like a GET.
   * The body is checked against `IncidentRequest` first; `id`, `created_at` and
   * `updated_at` are server-owned and are not sent.
   * Every service carries its `id`, `name` and `accountId` (the account the request acts for).
   * @example await client.incidents.update("inc_1", { name: "API down", severity: "MAJOR", services: [{ id: "svc_api", name: "Public API", accountId: "acct_1" }] })
   */
  update(incidentId: string, body: IncidentRequest): Promise<IncidentResponse>;
  /** The 100 latest updates of the incident: `GET …/incidents/{incidentId}/incident-updates`. */
  listUpdates(incidentId: string): Promise<IncidentUpdate[]>;
}

const UPDATE_ROUTE = ROUTES.updateIncident;
const LIST_UPDATES_ROUTE = ROUTES.listIncidentUpdates;
const UPDATE = target("incidents.update", UPDATE_ROUTE);
const LIST_UPDATES = target("incidents.listUpdates", LIST_UPDATES_ROUTE);

const UpdateInput = z.strictObject({ incidentId: PathId, body: UPDATE_ROUTE.body.schema });
const ListUpdatesInput = z.strictObject({ incidentId: PathId });

export function createIncidentsApi(transport: Transport): IncidentsApi {
  return {
    async update(incidentId, body) {
      const input = checkRequest(UPDATE, UpdateInput, { incidentId, body });
      const { id: _id, created_at: _created, updated_at: _updated, ...sent } = input.body;
      return callRoute(transport, UPDATE, UPDATE_ROUTE, input, { body: sent });
    },

    async listUpdates(incidentId) {
      const input = checkRequest(LIST_UPDATES, ListUpdatesInput, { incidentId });
      return callRoute(transport, LIST_UPDATES, LIST_UPDATES_ROUTE, input);
    },
  };
}
