import type { IncidentDeclaration, IncidentService } from "./declaration";

/** Fields of a declaration whose change is applied with a PUT; `incidentId` replaces instead. */
export const APPLIED_FIELDS = [
  "name",
  "severity",
  "status",
  "services",
  "duration",
  "onRemove",
  "reopen",
] as const;
export type AppliedField = (typeof APPLIED_FIELDS)[number];

/** What changed in the list of services, compared by id; names are kept for readers. */
export interface ServiceChanges {
  readonly added: IncidentService[];
  readonly removed: IncidentService[];
  /** Same id, different name. */
  readonly renamed: { readonly id: string; readonly before?: string; readonly after?: string }[];
}

export interface DeclarationDiff {
  /** The incident id changed: the old incident is let go and another one managed. */
  readonly replace: boolean;
  /** Applied fields that differ, in `APPLIED_FIELDS` order. */
  readonly changed: AppliedField[];
  readonly services: ServiceChanges;
}

/**
 * The one diff rule, shared by `plan` (what a pull request changes) and the provider's `diff`
 * (what `pulumi up` applies), so a review and an apply never disagree.
 *
 * - Services are a set keyed by id: their order is no change; a new name for the same id is.
 * - `reopen: false` and no `reopen` mean the same.
 * - `duration: null` (clear it) differs from no `duration` (leave it as it is).
 */
export function diffDeclarations(
  before: IncidentDeclaration,
  after: IncidentDeclaration,
): DeclarationDiff {
  const services = diffServices(before.services, after.services);
  const changed = APPLIED_FIELDS.filter((field) =>
    field === "services"
      ? services.added.length + services.removed.length + services.renamed.length > 0
      : comparable(field, before[field]) !== comparable(field, after[field]),
  );
  return { replace: before.incidentId !== after.incidentId, changed, services };
}

function comparable(field: AppliedField, value: unknown): unknown {
  if (field === "reopen") return value === true;
  return value === undefined ? "(unset)" : value;
}

function diffServices(
  before: readonly IncidentService[],
  after: readonly IncidentService[],
): ServiceChanges {
  const old = new Map(before.map((service) => [service.id, service]));
  const now = new Map(after.map((service) => [service.id, service]));
  const renamed: ServiceChanges["renamed"][number][] = [];
  for (const service of after) {
    const previous = old.get(service.id);
    if (previous && previous.name !== service.name) {
      renamed.push({
        id: service.id,
        ...(previous.name === undefined ? {} : { before: previous.name }),
        ...(service.name === undefined ? {} : { after: service.name }),
      });
    }
  }
  return {
    added: after.filter((service) => !old.has(service.id)),
    removed: before.filter((service) => !now.has(service.id)),
    renamed,
  };
}
