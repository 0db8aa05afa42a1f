import type { IncidentRequest, IncidentStatus, Severity } from "../api/schemas";
import type { IncidentDefinition } from "../definitions/schema";

/** A service as applied: its id, and a name when the definition gives one. */
export interface IncidentService {
  id: string;
  name?: string;
}

/**
 * What a definition declares about its incident on the status page: the fields the provider
 * applies and compares, in the shape Pulumi stores them. `onRemove` and `reopen` steer the
 * provider and are never sent.
 */
export interface IncidentDeclaration {
  incidentId: string;
  name: string;
  severity: Severity;
  status: IncidentStatus;
  services: IncidentService[];
  duration?: number | null;
  onRemove: "release" | "resolve";
  reopen?: boolean;
}

/** The declaration of a validated definition: the one mapping the program and `plan` use. */
export function declarationOf(definition: IncidentDefinition): IncidentDeclaration {
  return {
    incidentId: definition.id,
    name: definition.name,
    severity: definition.severity,
    status: definition.status,
    services: definition.services.map((service) =>
      service.name === undefined ? { id: service.id } : { id: service.id, name: service.name },
    ),
    onRemove: definition.onRemove,
    ...(definition.duration === undefined ? {} : { duration: definition.duration }),
    ...(definition.reopen === undefined ? {} : { reopen: definition.reopen }),
  };
}

/**
 * The body of `PUT /v1/status-pages/incidents/{id}` for a declaration.
 *
 * `status` is sent as `lastUpdateStatus` only when given: a PUT without it leaves the live
 * status as it is, so a change of name or services can never reopen an incident that was
 * resolved on the status page.
 *
 * @example
 * await client.incidents.update(declaration.incidentId, requestOf(declaration, { status: "RESOLVED" }));
 */
export function requestOf(
  declaration: Omit<IncidentDeclaration, "status" | "onRemove">,
  options: { status?: IncidentStatus } = {},
): IncidentRequest {
  const request: IncidentRequest = {
    name: declaration.name,
    severity: declaration.severity,
    services: declaration.services.map((service) =>
      service.name === undefined ? { id: service.id } : { id: service.id, name: service.name },
    ),
  };
  if (options.status !== undefined) request.lastUpdateStatus = options.status;
  if (declaration.duration !== undefined) request.duration = declaration.duration;
  return request;
}
