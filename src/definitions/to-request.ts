import type { IncidentRequest } from "../api/schemas";
import type { IncidentDefinition } from "./schema";

/**
 * The body of `PUT /v1/status-pages/incidents/{id}` for a definition. Fields that only
 * steer incident-sync (`resource`, `evidence`, `onRemove`, `reopen`, `reason`) stay out.
 *
 * @example
 * await client.updateIncident(definition.id, toIncidentRequest(definition));
 */
export function toIncidentRequest(definition: IncidentDefinition): IncidentRequest {
  const request: IncidentRequest = {
    name: definition.name,
    severity: definition.severity,
    services: definition.services.map((service) =>
      service.name === undefined ? { id: service.id } : { id: service.id, name: service.name },
    ),
    lastUpdateStatus: definition.status,
  };
  if (definition.duration !== undefined) request.duration = definition.duration;
  return request;
}
