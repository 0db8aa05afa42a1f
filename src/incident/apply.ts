import {
  type IncidentResponse,
  type IncidentStatus,
  type IncidentUpdate,
  knownStatus,
} from "../api/schemas";
import { safeLine } from "../safe-text";
import { reopenMessage, statusToSend } from "./convergence";
import { type IncidentDeclaration, incidentLabel } from "./declaration";
import { type DeclaredEntry, entryChanges, foundPosted } from "./entries";
import { type EntryPlan, planEntries, type RecordedEntries } from "./entry-plan";
import type { IncidentInputs } from "./inputs";
import { reopenRefused } from "./lifecycle";
import {
  appliedStatus,
  type LiveStatus,
  liveStatusOf,
  shownStatus,
  updatesAfter,
} from "./live-status";
import { driftedFields, fieldsDigest, liveStatusObserved } from "./observation";
import type { IncidentRecord } from "./record";
import { updateForState } from "./state-text";

/*
 * What an apply sends, decided here and carried out by the provider. Without `updates` the
 * status is set by PUT; with them it is told by posted entries, and a PUT never carries it.
 */

/** Updates an apply keeps in the record for the outputs (those it posted, the newest). */
export const APPLIED_UPDATES_LIMIT = 5;

/** A declaration as an apply sends it: with the incident's id. */
export type Applying = IncidentDeclaration & { incidentId: string };

/**
 * The live status before an apply without `updates`: from this run's observation, else from
 * the `updates` the provider read (without them, `undefined` asks it to read them).
 */
export function liveBeforeApply(
  olds: IncidentRecord | undefined,
  observed: IncidentInputs["observed"],
): LiveStatus | undefined;
export function liveBeforeApply(
  olds: IncidentRecord | undefined,
  observed: IncidentInputs["observed"],
  updates: readonly IncidentUpdate[],
): LiveStatus;
export function liveBeforeApply(
  olds: IncidentRecord | undefined,
  observed: IncidentInputs["observed"],
  updates?: readonly IncidentUpdate[],
): LiveStatus | undefined {
  const applied = olds?.appliedAt ? { status: olds.status, at: olds.appliedAt } : undefined;
  return liveStatusObserved(observed, applied) ?? (updates && liveStatusOf(updates, applied));
}

/** Updates after this time were made by the apply: the newest the program read, else the last apply. */
export function seenUntil(
  olds: IncidentRecord | undefined,
  observed: IncidentInputs["observed"],
): string {
  return observed?.kind === "read" ? (observed.newestAt ?? "") : (olds?.appliedAt ?? "");
}

/** The next step of an apply without `updates`. */
export type StatusStep =
  | { kind: "put"; status: IncidentStatus | undefined }
  | { kind: "done" }
  | { kind: "refuse"; message: string };

/**
 * The next PUT without `updates`, given the live status now and the PUTs sent. A PUT may post,
 * only set or ignore the status, so an open status goes only in a second PUT, once the first
 * one's answer shows no RESOLVED it would reopen.
 */
export function nextStatusPut(
  declared: Pick<IncidentDeclaration, "status" | "reopen"> & { incidentId: string },
  live: LiveStatus,
  sent: number,
): StatusStep {
  if (sent >= 2 || (sent === 1 && live.status === declared.status)) return { kind: "done" };
  if (reopenRefused(live.status, declared.status, declared.reopen)) {
    return { kind: "refuse", message: reopenMessage(declared.incidentId, declared.status, live) };
  }
  if (sent === 1) return { kind: "put", status: declared.status };
  const first = statusToSend(declared.status, live) === "RESOLVED" ? "RESOLVED" : undefined;
  return { kind: "put", status: first };
}

/**
 * Without `updates`: whether an adoption may skip its PUT, as the program's read shows the
 * declared name, severity, services and status already (a declared duration it cannot see).
 */
export function adoptedAsShown(
  declaration: Pick<IncidentDeclaration, "name" | "severity" | "services" | "status" | "duration">,
  olds: IncidentRecord | undefined,
  observed: IncidentInputs["observed"],
  live: LiveStatus,
): boolean {
  if (olds !== undefined && !olds.claimed) return false;
  if (observed?.kind !== "read" || declaration.duration !== undefined) return false;
  return observed.fields === fieldsDigest(declaration) && live.status === declaration.status;
}

/** What a PUT's answer leaves in the record, and the live status it answered. */
export function afterPut(
  declaration: Applying,
  incident: IncidentResponse,
  sent: IncidentStatus | undefined,
  since: string,
  now: Date,
): Pick<IncidentRecord, "appliedAt" | "live" | "appliedUpdates"> {
  const appliedAt = incident.updated_at ?? now.toISOString();
  // A status the service added since is not one the rules can compare: the declared one
  // that was sent (or kept) stands for it, and the next read shows the value as it is.
  const answered = knownStatus(incident.lastUpdateStatus) ?? sent ?? declaration.status;
  return {
    appliedAt,
    live: appliedStatus(answered, appliedAt),
    appliedUpdates: updatesAfter(incident.incidentUpdates, since)
      .slice(0, APPLIED_UPDATES_LIMIT)
      .map(updateForState),
  };
}

/** The entries the last apply recorded; none when adopting (no record, or only a claim). */
export function recordedEntriesOf(olds: IncidentRecord | undefined): RecordedEntries {
  return olds && !olds.claimed && olds.updateIds
    ? { entries: olds.updates ?? [], ids: [...olds.updateIds] }
    : { entries: [], ids: [] };
}

/**
 * The entries a stopped run posted on an incident claimed before it: those of the claim (the
 * declaration as it was then) that the incident shows, in order, so that an entry edited in
 * git since is changed in place, not posted again.
 */
export function claimedEntriesOn(
  olds: IncidentRecord,
  incident: Pick<IncidentResponse, "incidentUpdates">,
): RecordedEntries {
  const entries = olds.updates ?? [];
  const indexes = entries.map((_, index) => index);
  const found = foundPosted(entries, indexes, incident.incidentUpdates, { known: new Set() });
  const ids = indexes.flatMap((index) => found.get(index) ?? []);
  return { entries: entries.slice(0, ids.length), ids };
}

/** Why a declaration that dropped `updates:` is refused: posted entries stay on the page. */
export function droppedEntriesRefusal(
  inputs: Pick<IncidentInputs, "incidentId" | "resource" | "updates">,
  olds: IncidentRecord | undefined,
): string | undefined {
  if (inputs.updates !== undefined) return undefined;
  const [removed] = entryChanges(olds?.claimed ? [] : (olds?.updates ?? []), []).violations;
  if (removed === undefined) return undefined;
  return `incident ${incidentLabel(inputs.incidentId ?? olds?.incidentId, inputs.resource)}: ${removed.message}`;
}

/** When the last apply was (ms), so older updates are not taken for a stopped run's posts. */
export function lastApplyMs(olds: IncidentRecord | undefined): number | undefined {
  return olds === undefined || olds.claimed ? undefined : Date.parse(olds.appliedAt) || undefined;
}

/** What a run says of an entry a run of ours posted and could not record the id of. */
export function foundNote(incidentId: string, index: number, updateId: string): string {
  return `incident ${incidentId}: updates[${index}] is on the status page already (update ${safeLine(updateId)}), posted before its id could be recorded; it is recorded, not posted again.`;
}

/**
 * What a run says, once, of the declared entries an incident it adopts shows already (after
 * `incident-sync import`, say): taken as they are, each by its text.
 */
export function adoptedNote(incidentId: string, indexes: readonly number[]): string {
  // Three or more in a row read as a range: `updates[0] to updates[11]`.
  const runs: [number, number][] = [];
  for (const index of [...indexes].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && last[1] === index - 1) last[1] = index;
    else runs.push([index, index]);
  }
  const names = runs.flatMap(([from, to]) =>
    to - from > 1
      ? [`updates[${from}] to updates[${to}]`]
      : [...new Set([from, to])].map((index) => `updates[${index}]`),
  );
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  const one = indexes.length === 1;
  return `incident ${incidentId}: ${list} of the definition ${one ? "is" : "are"} on the status page already, as declared: ${one ? "it is" : "they are"} taken as posted, not posted again.`;
}

/**
 * With `updates`: whether the incident as read needs a PUT of its fields, as it shows another
 * name, severity, services or declared duration. The PUT never carries a status.
 */
export function fieldsNeedPut(
  declaration: IncidentDeclaration,
  incident: IncidentResponse,
): boolean {
  if (driftedFields(declaration, incident).length > 0) return true;
  return declaration.duration !== undefined && (incident.duration ?? null) !== declaration.duration;
}

/** With `updates`: which entries to post or edit, in order, on the incident as it stands. */
export function planEntriesOn(
  declaration: Applying & { updates: DeclaredEntry[] },
  incident: IncidentResponse,
  recorded: RecordedEntries,
  appliedAt: number | undefined,
): EntryPlan {
  const plan = planEntries(declaration.updates, {
    recorded,
    live: { status: shownStatus(incident), updates: incident.incidentUpdates },
    reopen: declaration.reopen,
    appliedAt,
  });
  return plan.refusal
    ? { ...plan, refusal: `incident ${declaration.incidentId}: ${plan.refusal}` }
    : plan;
}

/** The record an apply with `updates` leaves: the ids of its entries and what it posted. */
export function entriesRecord(
  declaration: Applying & { updates: DeclaredEntry[] },
  providerVersion: string,
  done: {
    ids: string[];
    posted: readonly IncidentUpdate[];
    incident?: Pick<IncidentResponse, "updated_at"> | undefined;
  },
  now: Date,
): IncidentRecord {
  const times = done.posted.flatMap((update) => (update.created_at ? [update.created_at] : []));
  const appliedAt = times.sort().at(-1) ?? done.incident?.updated_at ?? now.toISOString();
  const status = declaration.updates.at(-1)?.status ?? declaration.status;
  return {
    ...declaration,
    providerVersion,
    appliedAt,
    live: appliedStatus(status, appliedAt),
    appliedUpdates: done.posted.slice(-APPLIED_UPDATES_LIMIT).map(updateForState),
    updateIds: done.ids,
  };
}
