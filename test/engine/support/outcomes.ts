import type { OperationOutcome } from "../../../src/engine";

/** An outcome in which the engine ran (the definitions were valid). */
export type Ran = Extract<OperationOutcome, { kind: "ran" }>;

/** The outcome, when the engine ran; else the definitions' problems as an error. */
export function ran(outcome: OperationOutcome): Ran {
  if (outcome.kind !== "ran") {
    throw new Error(`expected the engine to run, got: ${JSON.stringify(outcome.problems)}`);
  }
  return outcome;
}

/** `{ update: 1 }`: what the engine did to the incidents, by operation, without `same`. */
export function changesOf(outcome: Ran): Record<string, number> {
  const { same: _same, ...changes } = outcome.result.changes;
  return changes as Record<string, number>;
}
