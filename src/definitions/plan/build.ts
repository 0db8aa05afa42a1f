import type { LoadedDefinition } from "../parse-file";
import type { DefinitionProblem } from "../problem";
import { diffDefinitions } from "./diff";
import { checkPolicy } from "./policy";
import type { Plan } from "./types";

export interface PlanInput {
  readonly base: {
    readonly ref: string;
    readonly commit: string;
    readonly definitions: readonly LoadedDefinition[];
    readonly problems: readonly DefinitionProblem[];
  };
  /** The working tree's definitions; they must be valid. */
  readonly head: readonly LoadedDefinition[];
  readonly dir: string;
}

/** Compares the base with the working tree and applies the lifecycle policy. */
export function buildPlan(input: PlanInput): Plan {
  const { changes, unchanged } = diffDefinitions(input.base.definitions, input.head);
  const findings = checkPolicy(changes);
  const errors = findings.filter((finding) => finding.level === "error").length;
  const count = (kind: string) => changes.filter((change) => change.kind === kind).length;
  return {
    base: { ref: input.base.ref, commit: input.base.commit },
    dir: input.dir,
    verdict: errors > 0 ? "policy-violated" : changes.length > 0 ? "changes" : "no-changes",
    summary: {
      add: count("add"),
      update: count("update"),
      remove: count("remove"),
      unchanged,
      errors,
      warnings: findings.length - errors,
    },
    changes,
    findings,
    baseProblems: [...input.base.problems],
  };
}
