import type { IncidentUpdate } from "../api/schemas";
import type { Enforce } from "../settings/catalog";
import { decideApply } from "./convergence";
import type { IncidentDeclaration } from "./declaration";
import type { IncidentInputs } from "./inputs";
import { type LiveStatus, liveStatusOf } from "./live-status";
import { fieldsDigest, type Observation } from "./observation";
import type { Unanswered } from "./unanswered";

/**
 * What the stack records of an applied incident (the provider's state, internal to the
 * package): its declaration plus what the service said.
 */
export interface IncidentRecord extends IncidentDeclaration {
  /** The incident on the status page; empty for a new one claimed and not yet opened. */
  incidentId: string;
  providerVersion: string;
  /** Server time of the last apply (`updated_at`), else the provider's clock. */
  appliedAt: string;
  /** The live status as the provider last knew it: stored without `update`. */
  live: LiveStatus;
  /**
   * The updates the last apply made that the program had not read before it (at most a few,
   * usually none or those it posted), so the outputs describe the status page after the apply
   * without reading it again.
   */
  appliedUpdates: IncidentUpdate[];
  /** With `updates`: the id of each entry's update on the status page, in the same order. */
  updateIds?: string[];
  /**
   * Name, severity and services (`fieldsDigest`) as the read the last apply acted on showed
   * them otherwise than declared, with no time of change: that read, still in the stored
   * inputs at the next `pulumi refresh`, is no change since the apply.
   */
  fieldsSeen?: string;
  /**
   * Claimed, not yet applied (`claim.ts`): `appliedAt` is empty and `live` is the declared
   * status, known to nobody. The next update adopts (or opens) the incident.
   */
  claimed?: true;
  /** A new incident claimed before it was opened: when, so a run stopped midway finds it. */
  intentAt?: string;
  /**
   * A create or post sent that got no answer, which the service may still carry out: nothing
   * sends it again until a read shows it or its window has passed (`unanswered.ts`).
   */
  unanswered?: Unanswered;
}

/** The declaration an apply records: the inputs without this run's observations. */
export function declarationIn(inputs: IncidentInputs): IncidentDeclaration {
  const {
    observed: _observed,
    candidates: _candidates,
    claimOnly: _claimOnly,
    providerVersion: _version,
    ...declared
  } = inputs;
  return declared;
}

/** What a record keeps of the read its apply acted on (`fieldsSeen`). */
export function seenIn(
  observed: IncidentInputs["observed"],
  declared: Parameters<typeof fieldsDigest>[0],
): Pick<IncidentRecord, "fieldsSeen"> {
  if (observed?.kind !== "read" || observed.fields === undefined) return {};
  if (observed.changedAt !== undefined || observed.fields === fieldsDigest(declared)) return {};
  return { fieldsSeen: observed.fields };
}

/**
 * The observation the diff decides with: this run's read, or for a new incident the candidate
 * its state names. `read`: the program read nothing that is it, so the provider reads it.
 */
export function observationFor(
  olds: Pick<IncidentRecord, "claimed"> & { incidentId?: string | undefined },
  news: Pick<IncidentInputs, "observed" | "incidentId" | "candidates">,
): { observation: Observation | undefined } | { read: string } {
  if (news.observed !== undefined || news.incidentId !== undefined) {
    return { observation: news.observed };
  }
  if (!olds.incidentId || olds.claimed) return { observation: undefined };
  const candidate = news.candidates?.[olds.incidentId];
  return candidate === undefined ? { read: olds.incidentId } : { observation: candidate };
}

/**
 * The observation an update step decided with, from what the engine reports of it (its last
 * apply and inputs): an incident its resource opened by the id the state records, renamed or
 * not; none when the provider had to read it alone.
 */
export function observationOfStep(
  olds: Parameters<typeof observationFor>[0],
  news: Parameters<typeof observationFor>[1],
): Observation | undefined {
  const source = observationFor(olds, news);
  return "observation" in source ? source.observation : undefined;
}

/**
 * What the provider's diff reports: a change when `decideApply` applies, the incident id
 * changes (a replace, the old resource letting go first), a new release declares it, or it is
 * claimed and not yet adopted. A claim run changes nothing already in the state.
 */
export function decideDiff(
  olds: IncidentRecord,
  news: IncidentInputs,
  observation: Observation | undefined,
  enforce: Enforce,
): { changes: boolean; replace: boolean } {
  if (news.claimOnly) return { changes: false, replace: false };
  const decision = decideApply(olds, news, observation, enforce);
  const changes =
    decision.apply ||
    decision.replace ||
    olds.providerVersion !== news.providerVersion ||
    olds.claimed === true;
  return { changes, replace: decision.replace };
}

/** The record of an incident claimed (`claim.ts`): nothing applied, a new one's intent timed. */
export function claimedRecord(inputs: IncidentInputs, now: Date): IncidentRecord {
  const declared = declarationIn(inputs);
  return {
    ...declared,
    incidentId: declared.incidentId ?? "",
    providerVersion: inputs.providerVersion,
    appliedAt: "",
    live: { status: declared.status, at: "", source: "applied" },
    appliedUpdates: [],
    claimed: true,
    ...(declared.incidentId === undefined ? { intentAt: now.toISOString() } : {}),
  };
}

/**
 * What `pulumi refresh` reads of a recorded incident: nothing for a new one claimed and never
 * opened, its updates, or with `updates` the whole incident (one read either way).
 */
export function refreshRead(
  record: IncidentRecord,
  id: string,
): { read: "nothing" } | { read: "updates" | "incident"; incidentId: string } {
  if (record.claimed && !record.incidentId) return { read: "nothing" };
  const incidentId = record.incidentId || id;
  return { read: record.updates === undefined ? "updates" : "incident", incidentId };
}

/** A record refreshed from the incident's updates: its live status by the one rule. */
export function refreshedRecord(
  record: IncidentRecord,
  incidentId: string,
  updates: readonly IncidentUpdate[],
  now: Date,
): IncidentRecord {
  const live = liveStatusOf(updates, { status: record.status, at: record.appliedAt });
  // State written by incident-sync 0.1 also held `createdAt`; it is dropped when next written.
  const { createdAt: _createdAt, ...rest } = record as IncidentRecord & { createdAt?: unknown };
  return {
    ...rest,
    incidentId,
    appliedUpdates: record.appliedUpdates ?? [],
    status: live.status ?? record.status,
    live:
      live.source === "update"
        ? {
            status: live.status ?? record.status,
            at: live.at ?? now.toISOString(),
            source: "update",
          }
        : { status: live.status ?? record.status, at: now.toISOString(), source: "applied" },
  };
}
