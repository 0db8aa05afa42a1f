import type { LoadedDefinition } from "../definitions/parsed-file";
import type { DefinitionProblem } from "../definitions/problem";
import { belongsToStack, parseStackName } from "../definitions/stack-name";
import { diffDefinitions } from "./diff";
import { checkPolicy, sortFindings, stackFindings } from "./policy";
import { type PlanStack, stackEffects } from "./stack-effects";
import type { IncidentChange, Plan, PolicyFinding } from "./types";

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
  /**
   * The project's stacks, on which a change of `stacks` is shown stack by stack; none known:
   * the stacks the lists name, and every other stack together.
   */
  readonly stacks?: readonly PlanStack[] | undefined;
  /** `stacks` entries that name no stack of the project (`unknownStackEntries`): policy errors. */
  readonly stackProblems?: readonly DefinitionProblem[] | undefined;
  /** With `stack`: the incident id its state gives each resource, where it could be read. */
  readonly incidentIds?: ReadonlyMap<string, string> | undefined;
}

/** Compares the base with the working tree and applies the lifecycle policy. */
export function buildPlan(input: PlanInput): Plan {
  const { stack } = input;
  const ofStack = (definitions: readonly LoadedDefinition[]) =>
    stack === undefined
      ? definitions
      : definitions.filter((loaded) => belongsToStack(loaded.definition, stack));
  const diff = diffDefinitions(ofStack(input.base.definitions), ofStack(input.head), {
    incidentIds: input.incidentIds,
  });
  // A plan of one stack shows what the change does there alone.
  const stacks =
    stack === undefined ? (input.stacks ?? []) : [{ name: stack, ref: parseStackName(stack) }];
  const inTree = new Set(input.head.map((loaded) => loaded.definition.resource));
  const changes = diff.changes.map((change): IncidentChange => {
    if (change.kind === "remove" && stack !== undefined && inTree.has(change.resource)) {
      return { ...change, byStacks: true };
    }
    if (change.kind !== "update" || !change.fields.some((field) => field.field === "stacks")) {
      return change;
    }
    return { ...change, stacks: stackEffects(change.before, change.after, stacks) };
  });
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
        unchanged: diff.unchanged,
        errors: 0,
        warnings: 0,
      },
      changes,
      findings: [],
      baseProblems: [...input.base.problems],
    },
    [
      ...checkPolicy(changes, { stack, head: input.head }),
      ...stackFindings(input.stackProblems ?? [], input.head),
    ],
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
