import type { IncidentDeclaration, IncidentService } from "./declaration";
import type { DeclaredEntry } from "./entries";

/**
 * Fields of a declaration whose change is applied (with a PUT, or for `updates` by posting and
 * editing entries); `incidentId` replaces instead.
 */
export const APPLIED_FIELDS = [
  "name",
  "severity",
  "status",
  "services",
  "duration",
  "updates",
  "onRemove",
  "closing",
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
  /**
   * The incident id changed: the old incident is let go and another one managed. A definition
   * that leaves `id` out keeps the incident it created, and one that adds the id it has changes
   * nothing.
   */
  readonly replace: boolean;
  /** Applied fields that differ, in `APPLIED_FIELDS` order. */
  readonly changed: AppliedField[];
  readonly services: ServiceChanges;
}

/**
 * The one diff, for `plan` and the provider alike: services by id, `reopen: false` as none,
 * `duration: null` unlike none; with `updates` their entries, not `status`, change.
 */
export function diffDeclarations(
  before: IncidentDeclaration,
  after: IncidentDeclaration,
): DeclarationDiff {
  const services = diffServices(before.services, after.services);
  const entries = after.updates !== undefined;
  const changed = APPLIED_FIELDS.filter((field) => {
    if (field === "services") {
      return services.added.length + services.removed.length + services.renamed.length > 0;
    }
    if (field === "status" && entries && before.updates !== undefined) return false;
    return comparable(field, before[field]) !== comparable(field, after[field]);
  });
  const replace =
    before.incidentId !== undefined &&
    before.incidentId !== "" &&
    after.incidentId !== undefined &&
    before.incidentId !== after.incidentId;
  return { replace, changed, services };
}

function comparable(field: AppliedField, value: unknown): unknown {
  if (field === "reopen") return value === true;
  if (field === "closing") return value === undefined ? "(unset)" : JSON.stringify(value);
  if (field === "updates") return entriesKey(value as readonly DeclaredEntry[] | undefined);
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

/** Entries as one comparable text, whatever order the state gives their keys in. */
function entriesKey(entries: readonly DeclaredEntry[] | undefined): string {
  if (entries === undefined) return "(unset)";
  return JSON.stringify(
    entries.map((entry) => [entry.status, entry.message, entry.notify === true, entry.at ?? null]),
  );
}
