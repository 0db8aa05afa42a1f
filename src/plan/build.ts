import type { LoadedDefinition } from "../definitions/parsed-file";
import type { DefinitionProblem } from "../definitions/problem";
import { belongsToStack } from "../definitions/stack-name";
import { diffDefinitions } from "./diff";
import { checkPolicy, sortFindings } from "./policy";
import type { Plan, PolicyFinding } from "./types";

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
  /** Compare only the definitions of this stack, on both sides (`belongsToStack`). */
  readonly stack?: string | undefined;
}

/** Compares the base with the working tree and applies the lifecycle policy. */
export function buildPlan(input: PlanInput): Plan {
  const { stack } = input;
  const ofStack = (definitions: readonly LoadedDefinition[]) =>
    stack === undefined
      ? definitions
      : definitions.filter((loaded) => belongsToStack(loaded.definition, stack));
  const { changes, unchanged } = diffDefinitions(
    ofStack(input.base.definitions),
    ofStack(input.head),
  );
  const count = (kind: string) => changes.filter((change) => change.kind === kind).length;
  return withFindings(
    {
      base: { ref: input.base.ref, commit: input.base.commit },
      dir: input.dir,
      ...(stack === undefined ? {} : { stack }),
      verdict: "no-changes",
      summary: {
        add: count("add"),
        update: count("update"),
        remove: count("remove"),
        unchanged,
        errors: 0,
        warnings: 0,
      },
      changes,
      findings: [],
      baseProblems: [...input.base.problems],
    },
    checkPolicy(changes),
  );
}

/**
 * The plan with more policy findings (e.g. what `plan --evidence` learns from the status
 * page), its verdict and counts recomputed.
 */
export function withFindings(plan: Plan, extra: readonly PolicyFinding[]): Plan {
  const findings = sortFindings([...plan.findings, ...extra]);
  const errors = findings.filter((finding) => finding.level === "error").length;
  return {
    ...plan,
    verdict: errors > 0 ? "policy-violated" : plan.changes.length > 0 ? "changes" : "no-changes",
    summary: { ...plan.summary, errors, warnings: findings.length - errors },
    findings,
  };
}
