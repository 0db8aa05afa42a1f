import { join } from "node:path";
import {
  type IncidentCreateRequest,
  type IncidentRequest,
  type IncidentStatus,
  type IncidentUpdate,
  type IncidentUpdateRequest,
  knownStatus,
  type Severity,
} from "../api/schemas";
import { type Closing, DEFAULT_ON_REMOVE, type IncidentDefinition } from "../definitions/schema";
import { UserError } from "../user-error";
import type { DeclaredEntry } from "./entries";
import { publishedIso } from "./live-status";

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
  /**
   * Path identifier of an existing incident to adopt; changing it replaces the resource. Left
   * out, the incident is new: the first apply opens it, and its id is the `incidentId` output.
   */
  incidentId?: string;
  /** A new incident's resource name (without `incidentId`), which messages name it by until it exists. */
  resource?: string;
  name: string;
  severity: Severity;
  /** With `updates`, the last entry's. */
  status: IncidentStatus;
  /**
   * Affected services, at least one, each with its name: the service's API requires `id`,
   * `name` and `accountId` (from the stack config) in every service object it is sent, so the
   * provider's check refuses a service without a name.
   */
  services: IncidentService[];
  /** Passed to the API as is. */
  duration?: number | null;
  /** `release` (default) leaves the incident as it is when the resource is deleted; `resolve` resolves it. */
  onRemove: "release" | "resolve";
  /** With `onRemove: resolve` and `updates`: the last update a removal posts, and whom it tells. */
  closing?: Closing;
  /** Allows moving a RESOLVED incident back to an open status. */
  reopen?: boolean;
  /**
   * What customers read, oldest first: each entry is posted once, in order, notifying the
   * subscribers when it says so; the status is the last entry's. Required without
   * `incidentId`. Absent: the status is applied with `PUT`'s `lastUpdateStatus`.
   */
  updates?: DeclaredEntry[];
}

/** Whether the declaration tells its status through posted updates (it has `updates`). */
export function postsUpdates(
  declaration: Pick<IncidentDeclaration, "updates">,
): declaration is { updates: DeclaredEntry[] } {
  return declaration.updates !== undefined;
}

/** How messages name an incident: its id, else the resource that will create it. */
export function incidentLabel(incidentId: string | undefined, resource?: string): string {
  if (incidentId) return incidentId;
  return resource ? `(new: ${resource})` : "(new)";
}

/** What a declaration is made of: a validated definition, or the provider's checked inputs. */
export type DeclarationSource = Pick<
  IncidentDefinition,
  | "id"
  | "resource"
  | "name"
  | "severity"
  | "status"
  | "services"
  | "onRemove"
  | "closing"
  | "duration"
  | "reopen"
  | "updates"
>;

/** The declaration of a validated definition: the one mapping the program, `plan` and `check` use. */
export function declarationOf(definition: DeclarationSource): IncidentDeclaration {
  return {
    ...(definition.id === undefined
      ? { resource: definition.resource }
      : { incidentId: definition.id }),
    name: definition.name,
    severity: definition.severity,
    status: definition.status,
    services: definition.services.map((service) =>
      service.name === undefined ? { id: service.id } : { id: service.id, name: service.name },
    ),
    onRemove: definition.onRemove,
    ...(definition.closing === undefined
      ? {}
      : { closing: { message: definition.closing.message, notify: definition.closing.notify } }),
    ...(definition.duration === undefined ? {} : { duration: definition.duration }),
    ...(definition.reopen === undefined ? {} : { reopen: definition.reopen }),
    ...(definition.updates === undefined
      ? {}
      : {
          updates: definition.updates.map((entry) => ({
            status: entry.status,
            message: entry.message,
            notify: entry.notify,
            ...(entry.at === undefined ? {} : { at: entry.at }),
          })),
        }),
  };
}

/** The onRemove of a declaration that does not say: the definitions' default. */
export { DEFAULT_ON_REMOVE };

/** The services of a declaration that have no name, which a PUT body cannot be built without. */
export function unnamedServices(services: readonly IncidentService[]): string[] {
  return services.flatMap((service) => (service.name ? [] : [service.id]));
}

/** Why a service without a name cannot be sent, and where its name goes. */
export function unnamedServicesMessage(incident: string, ids: readonly string[]): string {
  const list = ids.map((id) => JSON.stringify(id)).join(", ");
  return `incident ${incident}: the API requires a name for every service, and ${ids.length === 1 ? `service ${list} has` : `services ${list} have`} none. Write it in the definition (\`{ id, name }\`) or once in the services catalog (services.yaml in the definitions directory).`;
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
    throw new UnnamedServiceError(
      unnamedServicesMessage(incidentLabel(declaration.incidentId, declaration.resource), unnamed),
    );
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

/**
 * The body of `POST /v1/status-pages/incidents` that opens a declared incident: the fields a
 * PUT sends and its first entry as the one update the service requires. No `lastUpdateStatus`:
 * the update carries the status, as the vendor's own CLI sends it.
 */
export function createRequestOf(
  declaration: Omit<IncidentDeclaration, "status" | "onRemove">,
  first: DeclaredEntry,
  options: { accountId: string },
): IncidentCreateRequest {
  const { lastUpdateStatus: _status, ...incident } = requestOf(declaration, options);
  return { ...incident, incidentUpdates: [entryRequest(first, { notify: first.notify })] };
}

/**
 * The body that posts an entry (`notify` as declared) or changes it in place (`notify:
 * false`: an edit never notifies again). `notifySubscribers` is always sent, never left to
 * the service's default.
 */
export function entryRequest(
  entry: DeclaredEntry,
  options: { notify: boolean },
): IncidentUpdateRequest {
  return {
    description: entry.message,
    status: entry.status,
    notifySubscribers: options.notify,
    ...(entry.at === undefined ? {} : { publicIncidentUpdateDate: entry.at }),
  };
}

/**
 * The body that changes a posted entry in place, notifying nobody: its text as declared, its
 * date and status as customers see them (the live update's), so the PUT, which may date an
 * update without one to now, never moves it. A declared `at` is a date changed on purpose.
 */
export function editRequest(
  entry: DeclaredEntry,
  live: IncidentUpdate | undefined,
): IncidentUpdateRequest {
  const at = entry.at ?? (live === undefined ? null : publishedIso(live));
  const status = knownStatus(live?.status) ?? entry.status;
  return {
    ...entryRequest({ ...entry, status }, { notify: false }),
    ...(at === null ? {} : { publicIncidentUpdateDate: at }),
  };
}

/**
 * The services of state written before service names were required (0.1, 0.2), named from the
 * services catalog of the definitions directory `dir`, since a deleted definition cannot name
 * them. Throws `UnnamedServiceError`, naming the catalog, for any it does not name either.
 */
export async function servicesNamedFromCatalog(
  incidentId: string,
  services: readonly IncidentService[],
  dir: string,
): Promise<IncidentService[]> {
  // Loaded here, not with the module: it brings the YAML parser, which the provider's
  // everyday operations never need.
  const { CATALOG_FILES, readServiceNames } = await import("../definitions/catalog.js");
  const names = await readServiceNames(dir);
  const named = services.map((service) => {
    const name = service.name ?? names.get(service.id);
    return name === undefined ? service : { id: service.id, name };
  });
  const missing = unnamedServices(named);
  if (missing.length > 0) {
    throw new UnnamedServiceError(
      `${unnamedServicesMessage(incidentId, missing)} Its state was written by an older incident-sync, and the services catalog ${join(dir, CATALOG_FILES[0] ?? "")} names none of them.`,
    );
  }
  return named;
}
