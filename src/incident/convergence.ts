import type { IncidentStatus } from "../api/schemas";
import type { Enforce } from "../settings/catalog";
import type { IncidentDeclaration } from "./declaration";
import { type AppliedField, diffDeclarations } from "./diff";
import { reopenRefused } from "./lifecycle";
import type { LiveStatus } from "./live-status";
import { liveStatusObserved, type Observation, postedSince } from "./observation";

/** An incident as the last apply left it: its declaration and the server time of the PUT. */
export interface AppliedIncident extends IncidentDeclaration {
  appliedAt: string;
}

/** Why an incident is applied in this run. */
export type ApplyReason =
  /** Its definition changed in git. */
  | "git"
  /** Its live status differs from the declared one. */
  | "live-status"
  /** Something was posted on the status page since the last apply. */
  | "outside-git"
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
 * The convergence rule of an `up`: what the provider's diff decides for one incident, given
 * the state of its last apply, its declaration and what the program observed in this run.
 * Every `up` thus leaves the status page as git declares it, as far as the API lets anyone
 * see: status and updates are visible, name, severity and services are not (the API has no
 * read of an incident), which `enforce: always` covers by applying every incident.
 * A live RESOLVED is never reopened unless the definition says `reopen: true`.
 */
export function decideApply(
  applied: AppliedIncident,
  declared: IncidentDeclaration,
  observation: Observation | undefined,
  enforce: Enforce,
): ApplyDecision {
  const diff = diffDeclarations(applied, declared);
  const live = liveStatusObserved(observation, { status: applied.status, at: applied.appliedAt });
  const changed = [...diff.changed];
  const reasons: ApplyReason[] = changed.length > 0 || diff.replace ? ["git"] : [];
  if (live?.status && live.status !== declared.status) {
    if (!changed.includes("status")) changed.splice(statusIndex(changed), 0, "status");
    reasons.push("live-status");
  }
  if (postedSince(observation, applied.appliedAt)) reasons.push("outside-git");
  if (enforce === "always") reasons.push("enforce");
  const refusal =
    !diff.replace && live && reopenRefused(live.status, declared.status, declared.reopen)
      ? reopenMessage(declared.incidentId, declared.status, live)
      : undefined;
  return { replace: diff.replace, changed, reasons, apply: reasons.length > 0, live, refusal };
}

/** Keeps `changed` in APPLIED_FIELDS order: status comes after name and severity. */
function statusIndex(changed: readonly AppliedField[]): number {
  const after = changed.findIndex((field) => field !== "name" && field !== "severity");
  return after === -1 ? changed.length : after;
}

/** Says which incident, who resolved it when (the update), and the two ways forward. */
export function reopenMessage(
  incidentId: string,
  declared: IncidentStatus,
  live: LiveStatus,
): string {
  const by = live.update
    ? ` at ${(live.update.publicIncidentUpdateDate ?? live.update.created_at ?? "").replace(".000Z", "Z")} by update ${live.update.id ?? "(no id)"} ("${live.update.description}")`
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
