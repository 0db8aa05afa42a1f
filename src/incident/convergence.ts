import type { IncidentStatus, IncidentUpdate } from "../api/schemas";
import type { Enforce, OnPageChange } from "../settings/catalog";
import { type IncidentDeclaration, incidentLabel, postsUpdates } from "./declaration";
import { APPLIED_FIELDS, type AppliedField, diffDeclarations } from "./diff";
import { type DeclaredEntry, entryChanges } from "./entries";
import { reopenRefused } from "./lifecycle";
import { type LiveStatus, liveStatusOf } from "./live-status";
import {
  fieldsChangedSince,
  liveStatusObserved,
  type Observation,
  postedSince,
} from "./observation";
import { pageChangeRefusalBeforeApply } from "./page-change";

/** An incident as the last apply left it: its declaration and the server time of the PUT. */
export interface AppliedIncident extends IncidentDeclaration {
  appliedAt: string;
  /** With `updates`: the ids of the entries posted, in order (none before the first apply). */
  updateIds?: string[];
  /** The fields the read the apply acted on showed, when it gave no time (`seenIn`). */
  fieldsSeen?: string;
}

/** The entries the last apply posted: as many of its `updates` as it recorded ids for. */
export function postedEntries(applied: AppliedIncident): DeclaredEntry[] {
  return (applied.updates ?? []).slice(0, applied.updateIds?.length ?? 0);
}

/** Why an incident is applied in this run. */
export type ApplyReason =
  /** Its definition changed in git. */
  | "git"
  /** Its live status differs from the declared one. */
  | "live-status"
  /** Something was posted on the status page since the last apply. */
  | "outside-git"
  /** The status page shows another name, severity or services than declared. */
  | "drift"
  /** `enforce: always`. */
  | "enforce";

export interface ApplyDecision {
  readonly replace: boolean;
  /** Applied fields that change: from git, and `status` when the live status differs. */
  readonly changed: AppliedField[];
  readonly reasons: ApplyReason[];
  /** Whether `up` PUTs the incident. */
  readonly apply: boolean;
  /** The live status, when this run observed it. */
  readonly live: LiveStatus | undefined;
  /** Set when applying would reopen an incident that was resolved on the status page. */
  readonly refusal: string | undefined;
}

/**
 * What an `up` applies: git's changes, a live status that differs (without `updates`), fields
 * changed on the status page, or everything with `enforce: always`; never a silent reopen.
 */
export function decideApply(
  applied: AppliedIncident,
  declared: IncidentDeclaration,
  observation: Observation | undefined,
  enforce: Enforce,
): ApplyDecision {
  const diff = diffDeclarations(applied, declared);
  const live = liveStatusObserved(observation, { status: applied.status, at: applied.appliedAt });
  const changed = new Set<AppliedField>(diff.changed);
  const reasons: ApplyReason[] = changed.size > 0 || diff.replace ? ["git"] : [];
  const entries = postsUpdates(declared);
  if (!entries && live?.status && live.status !== declared.status) {
    changed.add("status");
    reasons.push("live-status");
  }
  if (fieldsChangedSince(observation, applied)) reasons.push("drift");
  if (!entries && postedSince(observation, applied.appliedAt)) reasons.push("outside-git");
  if (enforce === "always") reasons.push("enforce");
  return {
    replace: diff.replace,
    changed: APPLIED_FIELDS.filter((field) => changed.has(field)),
    reasons,
    apply: reasons.length > 0,
    live,
    refusal: diff.replace || !live ? undefined : refusalOf(applied, declared, live),
  };
}

/**
 * A reopen the definition does not allow: without `updates`, a declared open status over a
 * live RESOLVED; with them, a new entry with an open status posted over a live RESOLVED, or
 * a posted entry removed, reordered or changed in a way the lifecycle refuses.
 */
function refusalOf(
  applied: AppliedIncident,
  declared: IncidentDeclaration,
  live: LiveStatus,
): string | undefined {
  const label = incidentLabel(declared.incidentId ?? applied.incidentId, declared.resource);
  if (!postsUpdates(declared)) {
    return reopenRefused(live.status, declared.status, declared.reopen)
      ? reopenMessage(label, declared.status, live)
      : undefined;
  }
  const changes = entryChanges(postedEntries(applied), declared.updates);
  if (changes.violations.length > 0) {
    return `incident ${label}: ${changes.violations.map((violation) => violation.message).join(" ")}`;
  }
  const [next] = changes.added;
  const entry = next === undefined ? undefined : declared.updates[next];
  return entry && reopenRefused(live.status, entry.status, declared.reopen)
    ? reopenMessage(label, entry.status, live)
    : undefined;
}

/** Says which incident, who resolved it when (the update), and the two ways forward. */
export function reopenMessage(
  incidentId: string,
  declared: IncidentStatus,
  live: LiveStatus,
): string {
  const by = live.update
    ? ` at ${(live.at ?? "").replace(".000Z", "Z")} by update ${live.update.id ?? "(no id)"} ("${live.update.description}")`
    : "";
  return `incident ${incidentId} was resolved on the status page${by}, but its definition says ${declared}: applying it would reopen the incident in front of customers. Set "status: RESOLVED" in the definition, or add "reopen: true" to reopen it on purpose.`;
}

/**
 * The status a PUT sends: the declared one when the live status differs or is unknown;
 * none when they agree, so the PUT leaves the status (and its update history) alone.
 */
export function statusToSend(
  declared: IncidentStatus,
  live: LiveStatus | undefined,
): IncidentStatus | undefined {
  return live?.status === declared ? undefined : declared;
}

/**
 * What an `up` would refuse that a preview shows as a plain step (a preview runs no update):
 * with the last apply, the update step's rules (`decideApply`, then a change on the status
 * page under `onPageChange: refuse`); for an adoption, a declared open
 * status over a live RESOLVED in this run's observation.
 */
export function refusalBeforeApply(
  previous: AppliedIncident | undefined,
  declared: IncidentDeclaration & { observed?: Observation | undefined },
  onPageChange?: OnPageChange,
): string | undefined {
  if (previous) {
    return (
      decideApply(previous, declared, declared.observed, "observed").refusal ??
      pageChangeRefusalBeforeApply(previous, declared, onPageChange)
    );
  }
  const live = liveStatusObserved(declared.observed);
  return live && reopenRefused(live.status, declared.status, declared.reopen)
    ? reopenMessage(incidentLabel(declared.incidentId, declared.resource), declared.status, live)
    : undefined;
}

/**
 * The refusal `up` would end in for a definition that adopts `incidentId`, from the updates the
 * status page shows now: an open status declared, without `reopen: true`, over a live RESOLVED.
 */
export function liveReopenRefusal(
  declared: { id: string; status: IncidentStatus; reopen?: boolean | undefined },
  updates: readonly IncidentUpdate[],
): string | undefined {
  const live = liveStatusOf(updates);
  return reopenRefused(live.status, declared.status, declared.reopen)
    ? reopenMessage(declared.id, declared.status, live)
    : undefined;
}
