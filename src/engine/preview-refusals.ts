import {
  type AppliedIncident,
  type IncidentDeclaration,
  type Observation,
  refusalBeforeApply,
} from "../incident";
import type { IncidentStep } from "./engine-events";

/**
 * A preview runs no update, so an `up` would refuse a reopen that the preview shows as a plain
 * update. This names those refusals on the preview's steps, by the rule of `src/incident`, from
 * the state before the step and the inputs (with this run's observation) that the engine
 * reported. Returns the steps it marked.
 */
export function markPreviewRefusals(steps: IncidentStep[]): IncidentStep[] {
  const marked: IncidentStep[] = [];
  for (const step of steps) {
    if ((step.op !== "update" && step.op !== "create") || !step.inputs || step.error) continue;
    const declared = step.inputs as unknown as IncidentDeclaration & { observed?: Observation };
    const previous =
      step.op === "update" && step.previous
        ? (step.previous as unknown as AppliedIncident)
        : undefined;
    const refusal = refusalBeforeApply(previous, declared);
    if (refusal) {
      step.error = refusal;
      marked.push(step);
    }
  }
  return marked;
}
