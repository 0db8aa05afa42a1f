import type { IncidentStatus } from "../../api/schemas";
import {
  type Applying,
  adoptedAsShown,
  afterPut,
  droppedEntriesRefusal,
  liveBeforeApply,
  nextStatusPut,
  seenUntil,
} from "../apply";
import { requestOf } from "../declaration";
import type { IncidentInputs } from "../inputs";
import type { LiveStatus } from "../live-status";
import { missingMessage } from "../messages";
import { pageChangeRefusalBeforeApply } from "../page-change";
import { declarationIn, type IncidentRecord, seenIn } from "../record";
import { notTaken } from "../taken";
import { type Carried, failed, type Next, refuse, unexpected } from "./context";
import type { Answer } from "./steps";

/*
 * An apply without `updates`: the status is set by PUT, one at a time, each decided on the
 * answer of the one before (`nextStatusPut`); a PUT is idempotent, so a failure sends nothing
 * more and the next run sends it again.
 */

export interface StatusApply extends Carried {
  phase: "status-read" | "status-put";
  inputs: IncidentInputs;
  olds: IncidentRecord | undefined;
  declaration: Applying;
  /** Updates after this time were made by the apply. */
  since: string;
  /** PUTs answered so far, and the status the last one sent. */
  sent: number;
  status: IncidentStatus | undefined;
  applied: Pick<IncidentRecord, "appliedAt" | "live" | "appliedUpdates">;
}

export function beginStatus(
  carried: Carried,
  inputs: IncidentInputs,
  olds: IncidentRecord | undefined,
  at: number,
): Next<StatusApply> {
  const declaration = {
    ...declarationIn(inputs),
    incidentId: inputs.incidentId ?? olds?.incidentId ?? "",
  };
  const live = liveBeforeApply(olds, inputs.observed);
  const state: StatusApply = {
    ...carried,
    phase: "status-read",
    inputs,
    olds,
    declaration,
    since: seenUntil(olds, inputs.observed),
    sent: 0,
    status: undefined,
    applied: {
      appliedAt: "",
      live: live ?? liveBeforeApply(olds, undefined, []),
      appliedUpdates: [],
    },
  };
  const refusal =
    droppedEntriesRefusal(inputs, olds) ??
    pageChangeRefusalBeforeApply(olds, inputs, carried.context.onPageChange);
  if (refusal) return refuse(state, refusal);
  if (live === undefined) {
    return { state, step: { kind: "list-updates", incidentId: declaration.incidentId } };
  }
  if (adoptedAsShown(declaration, olds, inputs.observed, live)) {
    // Nothing to send: the read is the last apply, the live status its update's, dated.
    const { update: _update, ...shown } = live;
    const appliedAt = state.since || new Date(at).toISOString();
    return finish(state, { appliedAt, live: shown, appliedUpdates: [] });
  }
  return nextPut(state, live);
}

export function stepStatus(state: StatusApply, answer: Answer): Next<StatusApply> {
  const failure = failed(answer);
  if (failure) {
    const { incidentId } = state.declaration;
    const missing = missingMessage(incidentId, state.context.accountId || undefined);
    return refuse(state, failure.absent ? missing : failure.text);
  }
  if (state.phase === "status-read") {
    if (answer.kind !== "updates") return unexpected(state, answer);
    return nextPut(state, liveBeforeApply(state.olds, state.inputs.observed, answer.updates));
  }
  if (answer.kind !== "incident") return unexpected(state, answer);
  const { declaration } = state;
  const refusal = notTaken(declaration.incidentId, declaration, state.status, answer.incident);
  if (refusal !== undefined) return refuse(state, refusal);
  const applied = afterPut(
    declaration,
    answer.incident,
    state.status,
    state.since,
    new Date(answer.at),
  );
  return nextPut({ ...state, sent: state.sent + 1, applied }, applied.live);
}

function nextPut(state: StatusApply, live: LiveStatus): Next<StatusApply> {
  const { declaration } = state;
  const step = nextStatusPut(declaration, live, state.sent);
  if (step.kind === "refuse") return refuse(state, step.message);
  const applied = state.sent === 0 ? { ...state.applied, live } : state.applied;
  if (step.kind === "done") return finish(state, applied);
  const body = requestOf(declaration, { accountId: state.context.accountId, status: step.status });
  return {
    state: { ...state, phase: "status-put", status: step.status, applied },
    step: { kind: "put", incidentId: declaration.incidentId, body },
  };
}

function finish(state: StatusApply, applied: StatusApply["applied"]): Next<StatusApply> {
  const { declaration } = state;
  const { providerVersion, observed } = state.inputs;
  const record = { ...declaration, providerVersion, ...applied, ...seenIn(observed, declaration) };
  return {
    state,
    step: {
      kind: "done",
      result: { op: "apply", id: declaration.incidentId, record },
      notes: state.notes,
    },
  };
}
