import {
  type AppliedIncident,
  type IncidentDeclaration,
  type IncidentInputs,
  type Observation,
  observationOfStep,
  pageChangesOf,
  refusalBeforeApply,
} from "../incident";
import type { OnPageChange } from "../settings";
import type { IncidentStep } from "./engine-events";

type Declared = IncidentDeclaration & { observed?: Observation | undefined };

/**
 * The step's declaration and its last apply, as the engine reported them; an update's with the
 * observation its diff decided with (`observationOfStep`), a new incident's candidate included.
 */
function stepRecords(step: IncidentStep): { declared: Declared; previous?: AppliedIncident } {
  const inputs = step.inputs as unknown as IncidentInputs;
  if (step.op !== "update" || !step.previous) return { declared: inputs };
  const previous = step.previous as unknown as AppliedIncident & { claimed?: true };
  return { declared: { ...inputs, observed: observationOfStep(previous, inputs) }, previous };
}

/**
 * Marks the preview's steps an `up` would refuse (a reopen; a change on the status page under
 * `onPageChange: refuse`), by `refusalBeforeApply`: a preview runs no update, so the engine
 * would show them as plain updates.
 */
export function markPreviewRefusals(
  steps: IncidentStep[],
  onPageChange?: OnPageChange,
): IncidentStep[] {
  const marked: IncidentStep[] = [];
  for (const step of steps) {
    if ((step.op !== "update" && step.op !== "create") || !step.inputs || step.error) continue;
    const { declared, previous } = stepRecords(step);
    const refusal = refusalBeforeApply(previous, declared, onPageChange);
    if (refusal) {
      step.error = refusal;
      marked.push(step);
    }
  }
  return marked;
}

/**
 * Gives each update step the fields changed on the status page that it puts back (or, under
 * `refuse`, was refused for), by `pageChangesOf` on the step's last apply and inputs.
 */
export function markPageChanges(steps: IncidentStep[]): void {
  for (const step of steps) {
    if (step.op !== "update" || !step.inputs || !step.previous) continue;
    const { declared, previous } = stepRecords(step);
    const changes = previous && pageChangesOf(previous, declared, declared.observed);
    if (changes) step.pageChanges = changes;
  }
}
