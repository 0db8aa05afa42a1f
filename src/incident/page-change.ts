import type { OnPageChange } from "../settings/catalog";
import { type IncidentDeclaration, incidentLabel } from "./declaration";
import {
  DRIFTED_FIELDS,
  type DriftedField,
  fieldsChangedSince,
  type Observation,
  shownValue,
} from "./observation";

/*
 * The one decision of "a change made on the status page that a run puts back": which fields,
 * what the page shows (old) and what git declares (new), and when the service says the page
 * changed. Preview, the run report, `plan` and the refusal under `onPageChange: refuse` all
 * render this decision; none works it out again.
 */

/** The last apply as this decision reads it (`AppliedIncident`, or the stored record). */
interface LastApply {
  incidentId?: string | undefined;
  name: string;
  severity: string;
  services: readonly { id: string }[];
  appliedAt: string;
  fieldsSeen?: string | undefined;
  claimed?: true | undefined;
}

/** A field the status page changed since the last apply, which an apply would set to git's value. */
export interface PageChange {
  field: DriftedField;
  /** As the status page shows it now (services as their sorted ids). */
  page: string;
  /** As git declares it, which an apply sends. */
  git: string;
}

/** The fields a run puts back, and the service's time of the page's change when it gave one. */
export interface PageChanges {
  fields: PageChange[];
  at: string | undefined;
}

/**
 * The fields changed on the status page after the last apply that differ from git's: each
 * shown by this run's observation otherwise than both the last apply and the declaration.
 * None for an adoption (no apply to compare with) or an observation without the fields.
 */
export function pageChangesOf(
  applied: LastApply,
  declared: Pick<IncidentDeclaration, "name" | "severity" | "services">,
  observation: Observation | undefined,
): PageChanges | undefined {
  if (applied.claimed || !applied.appliedAt) return undefined;
  if (observation?.kind !== "read" || observation.shown === undefined) return undefined;
  if (!fieldsChangedSince(observation, applied)) return undefined;
  const { shown } = observation;
  const fields = DRIFTED_FIELDS.flatMap((field): PageChange[] => {
    const page = shown[field];
    const git = shownValue(declared, field);
    if (page === undefined || page === git || page === shownValue(applied, field)) return [];
    return [{ field, page, git }];
  });
  return fields.length > 0 ? { fields, at: observation.changedAt } : undefined;
}

/** `name "Checkout slow" → "Checkout latency"`: one field, the page's value first. */
export function pageChangeText(change: PageChange): string {
  return `${change.field} ${valueText(change, change.page)} → ${valueText(change, change.git)}`;
}

/** A value as YAML would hold it: a quoted string, or services as a list of ids. */
function valueText(change: PageChange, value: string): string {
  return change.field === "services" ? `[${value}]` : JSON.stringify(value);
}

/** `changed on the status page at 2026-11-28T15:40:00Z`, without a time the service did not give. */
export function pageChangeWhen(changes: PageChanges): string {
  return `changed on the status page${changes.at ? ` at ${changes.at.replace(".000Z", "Z")}` : ""}`;
}

/** `name "A" → "B", severity "MINOR" → "MAJOR" (changed on the status page at …)`. */
export function pageChangesText(changes: PageChanges): string {
  return `${changes.fields.map(pageChangeText).join(", ")} (${pageChangeWhen(changes)})`;
}

/**
 * Under `refuse`, the failure of an incident whose page changed, before any write: each field
 * old → new, and the ways forward.
 */
export function pageChangeRefusal(
  incidentId: string | undefined,
  resource: string | undefined,
  changes: PageChanges,
): string {
  const label = incidentLabel(incidentId, resource);
  const fields = changes.fields.map(pageChangeText).join(", ");
  const take = changes.fields
    .map((change) => `${change.field}: ${valueText(change, change.page)}`)
    .join(", ");
  return `incident ${label} was ${pageChangeWhen(changes)} (${fields}), ${REFUSED_FOR_PAGE_CHANGE}. Take it into git (${take} in its definition) and run again, or set incident-sync:onPageChange to revert to put git's values back.`;
}

/** The words every page-change refusal holds, so a run's report tells it from other refusals. */
const REFUSED_FOR_PAGE_CHANGE =
  "and onPageChange is refuse, so nothing was sent and the page keeps the change";

/** Whether a step's error is the refusal of a change made on the status page, and no other. */
export function isPageChangeRefusal(error: string | undefined): boolean {
  return error?.includes(REFUSED_FOR_PAGE_CHANGE) === true;
}

/** The refusal an apply ends in under `onPageChange: refuse`, before it sends anything. */
export function pageChangeRefusalBeforeApply(
  applied: LastApply | undefined,
  declared: Pick<IncidentDeclaration, "name" | "severity" | "services" | "resource"> & {
    incidentId?: string | undefined;
    observed?: Observation | undefined;
  },
  onPageChange: OnPageChange | undefined,
): string | undefined {
  if (onPageChange !== "refuse" || applied === undefined) return undefined;
  const changes = pageChangesOf(applied, declared, declared.observed);
  return changes
    ? pageChangeRefusal(declared.incidentId ?? applied.incidentId, declared.resource, changes)
    : undefined;
}
