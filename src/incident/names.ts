import { named } from "../named";

/** What a person may know an incident by: the name git declares or the page shows, its resource, its id. */
export interface IncidentNames {
  readonly name?: string | null | undefined;
  /** The definition's resource name. */
  readonly resource?: string | null | undefined;
  /**
   * The incident's id on the status page (a GUID on the hosted service). A label in brackets
   * that stands in for an id not known yet (`incidentLabel`'s `(new: …)`) is no id.
   */
  readonly incidentId?: string | null | undefined;
}

/**
 * The one way every line a person reads names an incident (`plan`, `preview`, `up`'s report,
 * `drift`, the pull-request comment): `Name (resource, id)`; without a name, `resource (id)`;
 * known only by its id, the id.
 * @example incidentNamed({ name: "Checkout is slow", resource: "checkout", incidentId: "3f2a…" }) // "Checkout is slow (checkout, 3f2a…)"
 */
export function incidentNamed(incident: IncidentNames): string {
  const id = incident.incidentId?.startsWith("(") ? undefined : incident.incidentId;
  return named(incident.name, [incident.resource, id]);
}
