import type { IncidentStatus, IncidentUpdate } from "../api/schemas";
import type { IncidentDeclaration } from "./declaration";
import { changedSinceApply, driftOf, type IncidentDrift } from "./drift";
import { type LiveStatus, newestFirst } from "./live-status";
import type { ObservedFields } from "./observation";
import type { IncidentRecord } from "./record";
import { updateForState } from "./state-text";

/** What the last apply left of an incident, as its resource's outputs give it: its record's. */
export type AppliedReadBack = Pick<
  IncidentRecord,
  "incidentId" | "status" | "appliedAt" | "appliedUpdates"
>;

/** What the program read of an incident before the apply. */
export interface IncidentRead {
  updates: IncidentUpdate[];
  /** Name, severity and services, when the read gave the whole incident. */
  fields?: ObservedFields;
  created_at?: string | null | undefined;
  updated_at?: string | null | undefined;
}

/**
 * The status page as this run left an incident: the updates read before the apply and those
 * it made (newest first, at most 100, as the stack keeps them), its live status by the one
 * rule, and its drift from the declaration since the apply.
 */
export function statusPageAfterApply(
  declared: IncidentDeclaration,
  applied: AppliedReadBack,
  read: IncidentRead,
): { updates: IncidentUpdate[]; live: LiveStatus; drift: IncidentDrift } {
  const seen = new Set(read.updates.flatMap((update) => (update.id ? [update.id] : [])));
  const added = applied.appliedUpdates.filter((update) => !update.id || !seen.has(update.id));
  const updates = newestFirst([...added, ...read.updates])
    .slice(0, 100)
    .map(updateForState);
  const { live, ...drift } = driftOf({
    declared,
    updates,
    applied: { status: applied.status, at: applied.appliedAt },
    since: applied.appliedAt,
    fields: changedSinceApply(read, applied.appliedAt) ? read.fields : undefined,
  });
  return { updates, live, drift };
}

/** An entry of the stack's `drift` output. */
export interface DriftEntry extends Omit<IncidentDrift, "liveStatus"> {
  incidentId: string;
  file: string;
  /** `unknown` when the updates could not be read in this run, or no status tells. */
  liveStatus: IncidentStatus | "unknown";
  /** When the last apply happened (server time of its PUT): updates after it are outside git. */
  appliedAt: string;
}

/** The stack output's entry of an incident's drift. */
export function driftEntry(
  where: { incidentId: string; file: string; appliedAt: string },
  drift: IncidentDrift,
): DriftEntry {
  return { ...where, ...drift, liveStatus: drift.liveStatus ?? "unknown" };
}
