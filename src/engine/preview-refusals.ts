import {
  type AppliedIncident,
  type IncidentDeclaration,
  type Observation,
  refusalBeforeApply,
} from "../incident";
import type { IncidentStep } from "./engine-events";

/**
 * Marks the preview's steps an `up` would refuse (a reopen), by `refusalBeforeApply`: a
 * preview runs no update, so the engine would show them as plain updates.
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
