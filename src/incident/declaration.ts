import type { IncidentRequest, IncidentStatus, Severity } from "../api/schemas";
import type { IncidentDefinition } from "../definitions/schema";
import { UserError } from "../user-error";

/**
 * A service as applied: its id and its name. Definitions loaded from a directory always have
 * the name (written inline, or from the services catalog); an `Incident` declared in code may
 * leave it out, and the provider's check then refuses it before anything is sent.
 */
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

/** The services of a declaration that have no name, which a PUT body cannot be built without. */
export function unnamedServices(services: readonly IncidentService[]): string[] {
  return services.flatMap((service) => (service.name ? [] : [service.id]));
}

/** Why a service without a name cannot be sent, and where its name goes. */
export function unnamedServicesMessage(incidentId: string, ids: readonly string[]): string {
  const list = ids.map((id) => JSON.stringify(id)).join(", ");
  return `incident ${incidentId}: the API requires a name for every service, and ${ids.length === 1 ? `service ${list} has` : `services ${list} have`} none. Write it in the definition (\`{ id, name }\`) or once in the services catalog (services.yaml in the definitions directory).`;
}

/** A PUT body cannot be built: a service has no name. */
export class UnnamedServiceError extends UserError {
  override name = "UnnamedServiceError";
}

/**
 * The body of `PUT /v1/status-pages/incidents/{id}` for a declaration. Every service object
 * carries `id`, `name` and `accountId`, which the service requires: `accountId` is the account
 * the request acts for. A service without a name throws `UnnamedServiceError`.
 *
 * `status` is sent as `lastUpdateStatus` only when given: a PUT without it leaves the live
 * status as it is, so a change of name or services can never reopen an incident that was
 * resolved on the status page.
 *
 * @example
 * await client.incidents.update(
 *   declaration.incidentId,
 *   requestOf(declaration, { accountId: "acct_1", status: "RESOLVED" }),
 * );
 */
export function requestOf(
  declaration: Omit<IncidentDeclaration, "status" | "onRemove">,
  options: { accountId: string; status?: IncidentStatus | undefined },
): IncidentRequest {
  const unnamed = unnamedServices(declaration.services);
  if (unnamed.length > 0) {
    throw new UnnamedServiceError(unnamedServicesMessage(declaration.incidentId, unnamed));
  }
  const request: IncidentRequest = {
    name: declaration.name,
    severity: declaration.severity,
    services: declaration.services.map((service) => ({
      id: service.id,
      name: service.name ?? "",
      accountId: options.accountId,
    })),
  };
  if (options.status !== undefined) request.lastUpdateStatus = options.status;
  if (declaration.duration !== undefined) request.duration = declaration.duration;
  return request;
}
