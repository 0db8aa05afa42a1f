import { z } from "zod";
import { Incident, IncidentRequest, type IncidentUpdate, IncidentUpdateList } from "../schemas";
import { checkRequest, PathParam, segment, type Target } from "./request-checks";
import type { Transport } from "./transport";

/** Status-page incidents (spec 4.1 and 4.2). */
export interface IncidentsApi {
  /**
   * Replaces the incident's state: `PUT /v1/status-pages/incidents/{incidentId}`.
   * Idempotent (the full state is sent), so it is retried like a GET.
   * The body is checked against `IncidentRequest` first; `id`, `created_at` and
   * `updated_at` are server-owned and are not sent.
   * @example await client.incidents.update("inc_1", { name: "API down", severity: "MAJOR", services: [{ id: "svc_api" }] })
   */
  update(incidentId: string, body: IncidentRequest): Promise<Incident>;
  /** The 100 latest updates of the incident: `GET …/incidents/{incidentId}/incident-updates`. */
  listUpdates(incidentId: string): Promise<IncidentUpdate[]>;
}

const UPDATE: Target = {
  operation: "incidents.update",
  method: "PUT",
  path: "/v1/status-pages/incidents/{incidentId}",
};
const LIST_UPDATES: Target = {
  operation: "incidents.listUpdates",
  method: "GET",
  path: "/v1/status-pages/incidents/{incidentId}/incident-updates",
};

const UpdateInput = z.strictObject({ incidentId: PathParam, body: IncidentRequest });
const ListUpdatesInput = z.strictObject({ incidentId: PathParam });

export function createIncidentsApi(transport: Transport): IncidentsApi {
  return {
    async update(incidentId, body) {
      const input = checkRequest(UPDATE, UpdateInput, { incidentId, body });
      const { id: _id, created_at: _created, updated_at: _updated, ...sent } = input.body;
      return transport.call({
        ...UPDATE,
        path: `/v1/status-pages/incidents/${segment(input.incidentId)}`,
        body: sent,
        schema: Incident,
      });
    },

    async listUpdates(incidentId) {
      const input = checkRequest(LIST_UPDATES, ListUpdatesInput, { incidentId });
      return transport.call({
        ...LIST_UPDATES,
        path: `/v1/status-pages/incidents/${segment(input.incidentId)}/incident-updates`,
        schema: IncidentUpdateList,
      });
    },
  };
}
