import type { Enforce } from "../../settings/catalog";
import type { IncidentInputs } from "../inputs";
import { missingMessage } from "../messages";
import { type Observation, observe } from "../observation";
import {
  claimedRecord,
  decideDiff,
  type IncidentRecord,
  observationFor,
  refreshedRecord,
  refreshRead,
} from "../record";
import { type Carried, failed, type Next, type Probe, probe, refuse, unexpected } from "./context";
import type { Answer } from "./steps";

/*
 * The operations that read at most once: `pulumi refresh`, the claim of `incident-sync up`,
 * and the diff of a new incident whose observation the program could not give.
 */

export interface Refresh extends Carried {
  phase: "refresh-updates" | "refresh-incident";
  id: string;
  record: IncidentRecord;
  incidentId: string;
}

export function beginRefresh(carried: Carried, id: string, record: IncidentRecord): Next<Refresh> {
  const what = refreshRead(record, id);
  const state: Refresh = { ...carried, phase: "refresh-updates", id, record, incidentId: id };
  if (what.read === "nothing") {
    return { state, step: { kind: "done", result: { op: "refresh", id, record }, notes: [] } };
  }
  const { incidentId } = what;
  if (what.read === "updates")
    return { state: { ...state, incidentId }, step: { kind: "list-updates", incidentId } };
  return {
    state: { ...state, phase: "refresh-incident", incidentId },
    step: { kind: "get", incidentId },
  };
}

export function stepRefresh(state: Refresh, answer: Answer): Next<Refresh | Probe> {
  const failure = failed(answer);
  const { incidentId, id } = state;
  if (failure?.absent && state.phase === "refresh-incident") {
    return probe(state, incidentId, "", failure);
  }
  if (failure) {
    const missing = missingMessage(incidentId, state.context.accountId || undefined);
    return refuse(state, failure.absent ? missing : failure.text);
  }
  const updates =
    answer.kind === "updates"
      ? answer.updates
      : // Stryker disable next-line ConditionalExpression: next() lets only updates, an incident or a failure reach a refresh, and failures return before
        answer.kind === "incident"
        ? answer.incident.incidentUpdates
        : undefined;
  // Stryker disable next-line ConditionalExpression: the same: the updates are always there
  if (updates === undefined) return unexpected(state, answer);
  const record = refreshedRecord(state.record, incidentId, updates, new Date(answer.at));
  return { state, step: { kind: "done", result: { op: "refresh", id, record }, notes: [] } };
}

export interface Claim extends Carried {
  phase: "claim";
  inputs: IncidentInputs;
}

/**
 * The claim run records an incident without applying it: an id that exists (the program's
 * read of this run shows it, else one read of its own), or the intent to open one, and when.
 */
export function beginClaim(carried: Carried, inputs: IncidentInputs, at: number): Next<Claim> {
  const state: Claim = { ...carried, phase: "claim", inputs };
  const { incidentId } = inputs;
  if (incidentId && inputs.observed?.kind !== "read") {
    return { state, step: { kind: "list-updates", incidentId } };
  }
  return claimed(state, at);
}

export function stepClaim(state: Claim, answer: Answer): Next<Claim> {
  const failure = failed(answer);
  // Stryker disable next-line StringLiteral: a claim reads only for an incident id, so it is always there
  const incidentId = state.inputs.incidentId ?? "";
  if (failure) {
    const missing = missingMessage(incidentId, state.context.accountId || undefined);
    return refuse(state, failure.absent ? missing : failure.text);
  }
  return claimed(state, answer.at);
}

function claimed(state: Claim, at: number): Next<Claim> {
  const { inputs } = state;
  const id = inputs.incidentId ?? `new:${inputs.resource ?? ""}`;
  const record = claimedRecord(inputs, new Date(at));
  return { state, step: { kind: "done", result: { op: "claim", id, record }, notes: [] } };
}

export interface Diff extends Carried {
  phase: "diff";
  olds: IncidentRecord;
  news: IncidentInputs;
  enforce: Enforce;
}

/** A refusal is a change here, not an error: the update step refuses that incident alone. */
export function beginDiff(state: Diff): Next<Diff> {
  if (state.news.claimOnly) return decided(state, undefined, { changes: false, replace: false });
  const source = observationFor(state.olds, state.news);
  if ("read" in source) return { state, step: { kind: "get", incidentId: source.read } };
  return decided(state, source.observation);
}

/** Observation, not desired state: a read that fails leaves the diff to what git changed. */
export function stepDiff(state: Diff, answer: Answer): Next<Diff> {
  if (answer.kind !== "incident") return decided(state, undefined);
  const { incident } = answer;
  return decided(state, observe(incident.incidentUpdates, incident, state.news));
}

function decided(
  state: Diff,
  observation: Observation | undefined,
  decision = decideDiff(state.olds, state.news, observation, state.enforce),
): Next<Diff> {
  const { changes, replace } = decision;
  return { state, step: { kind: "done", result: { op: "diff", changes, replace }, notes: [] } };
}
