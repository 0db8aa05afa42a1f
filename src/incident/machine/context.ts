import type { OnPageChange } from "../../settings/catalog";
import { lacksOperationMessage, missingMessage } from "../messages";
import type { IncidentRecord } from "../record";
import { type Answer, type Failure, failureOf, type Refusal, type Step } from "./steps";

/** What the machine knows of the run it serves, besides the resource's own inputs and state. */
export interface RunContext {
  /** The account every request acts for, as every service object names it. */
  accountId: string;
  /** The incident ids the run's resources declare or took: another resource's, to leave be. */
  inRun: ReadonlySet<string>;
  /** What an apply does with a field changed on the status page (`revert` when unset). */
  onPageChange?: OnPageChange | undefined;
}

/** What every state of the machine carries. */
export interface Carried {
  context: RunContext;
  /** Lines for the engine's log, said when the operation ends. */
  notes: string[];
}

/**
 * A 404 (or 405) from a reference operation on an incident: the spec's own read of its updates
 * tells whether the incident is missing or the service lacks the operation.
 */
export interface Probe extends Carried {
  phase: "probe";
  incidentId: string;
  /** What the message starts with (`incident inc-1: updates[2] was not posted: `). */
  prefix: string;
  failure: Failure;
  keep?: Refusal["keep"];
}

export type Next<S> = { state: S; step: Step };

export function refuse<S extends Carried>(
  state: S,
  message: string,
  keep?: Refusal["keep"],
): Next<S> {
  return {
    state,
    step: { kind: "refuse", message, notes: state.notes, ...(keep ? { keep } : {}) },
  };
}

export function probe<S extends Carried>(
  state: S,
  incidentId: string,
  prefix: string,
  failure: Failure,
  keep?: Refusal["keep"],
): Next<Probe> {
  const { context, notes } = state;
  return {
    state: {
      phase: "probe",
      context,
      notes,
      incidentId,
      prefix,
      failure,
      ...(keep ? { keep } : {}),
    },
    step: { kind: "list-updates", incidentId },
  };
}

/** The probe's verdict: the incident read (the operation is missing), or not (the incident is). */
export function afterProbe(state: Probe, answer: Answer): Next<Probe> {
  const text =
    answer.kind === "updates"
      ? lacksOperationMessage(state.failure)
      : missingMessage(state.incidentId, state.context.accountId || undefined);
  return refuse(state, `${state.prefix}${text}`, state.keep);
}

/** A failed answer, classified; undefined for any other answer. */
export function failed(answer: Answer): Failure | undefined {
  return answer.kind === "failed" ? failureOf(answer) : undefined;
}

/** A record kept with the id Pulumi gives a resource: the incident's, or a new one's name. */
export function kept(record: IncidentRecord): { id: string; record: IncidentRecord } {
  return { id: record.incidentId || `new:${record.resource ?? ""}`, record };
}

/** An answer the state did not expect: a bug of the provider, said as such. */
export function unexpected<S extends Carried>(state: S & { phase: string }, answer: Answer) {
  return refuse(
    state,
    `incident-sync: the provider answered ${answer.kind} to a step of ${state.phase} (a bug; please report it).`,
  );
}
