import {
  type AppliedIncident,
  decideApply,
  type IncidentDeclaration,
  incidentLabel,
  liveStatusObserved,
  type Observation,
  reopenMessage,
  reopenRefused,
} from "../incident";
import type { IncidentStep } from "./engine-events";

/**
 * A preview runs no update, so an `up` would refuse a reopen that the preview shows as a plain
 * update. This names those refusals on the preview's steps, by the same rule the update step
 * applies, from the state before the step and the inputs (with this run's observation) that
 * the engine reported. Returns the steps it marked.
 */
export function markPreviewRefusals(steps: IncidentStep[]): IncidentStep[] {
  const marked: IncidentStep[] = [];
  for (const step of steps) {
    if ((step.op !== "update" && step.op !== "create") || !step.inputs || step.error) continue;
    const declared = step.inputs as unknown as IncidentDeclaration & { observed?: Observation };
    const refusal =
      step.op === "update" && step.previous
        ? decideApply(
            step.previous as unknown as AppliedIncident,
            declared,
            declared.observed,
            "observed",
          ).refusal
        : adoptionRefusal(declared);
    if (refusal) {
      step.error = refusal;
      marked.push(step);
    }
  }
  return marked;
}

function adoptionRefusal(
  declared: IncidentDeclaration & { observed?: Observation },
): string | undefined {
  const live = liveStatusObserved(declared.observed);
  return live && reopenRefused(live.status, declared.status, declared.reopen)
    ? reopenMessage(incidentLabel(declared.incidentId, declared.resource), declared.status, live)
    : undefined;
}
