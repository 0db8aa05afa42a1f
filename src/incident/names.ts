import { named } from "../named";

/** What a person may know an incident by: the name git declares or the page shows, its resource, its id. */
export interface IncidentNames {
  readonly name?: string | null | undefined;
  /** The definition's resource name. */
  readonly resource?: string | null | undefined;
  /**
   * The incident's id on the status page (a GUID on the hosted service), or a label in
   * brackets for an id not known yet (`incidentLabel`'s `(new: resource)`), which names the
   * resource itself and says why there is no id.
   */
  readonly incidentId?: string | null | undefined;
}

/**
 * The one way every line a person reads names an incident (`plan`, `preview`, `up`'s report,
 * `drift`, the pull-request comment): `Name (resource, id)`; without a name, `resource (id)`;
 * known only by its id, the id; not opened yet, `Name (new: resource)`.
 * @example incidentNamed({ name: "Checkout is slow", resource: "checkout", incidentId: "3f2a…" }) // "Checkout is slow (checkout, 3f2a…)"
 */
export function incidentNamed(incident: IncidentNames): string {
  const { name, incidentId } = incident;
  if (incidentId?.startsWith("(")) return name?.trim() ? `${name} ${incidentId}` : incidentId;
  return named(name, [incident.resource, incidentId]);
}
