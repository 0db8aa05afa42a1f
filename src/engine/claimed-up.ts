import type { ClaimPhase } from "../incident";
import {
  describeUnrecorded,
  excludeArgs,
  heldIncidents,
  targetArgs,
  type Unrecorded,
  unrecordedAfter,
  withUnrecorded,
} from "./claim-record";
import type { StackExport, StackRunResult, UpOptions } from "./stack-run";

/** What the claims need of an opened stack. */
export interface ClaimingStack {
  readonly bareName: string;
  readonly project: string;
  readonly stackName: string;
  /** Whether the run was asked to stop. */
  aborted(): boolean;
  log(line: string): void;
  /** Clears stale locks and drops pending operations: the state as the run starts. */
  prepare(): Promise<StackExport>;
  exportState(): Promise<StackExport>;
  run(args: string[], phase: ClaimPhase): Promise<StackRunResult>;
}

/**
 * `up` with claims (`src/incident/claim.ts`): the incidents new to the state are recorded by a
 * run targeted at them (once more for those it could not record), then the apply runs without
 * any still unrecorded, which are reported as not adopted.
 */
export async function claimThenApply(
  stack: ClaimingStack,
  args: string[],
  upOptions: UpOptions & { claim: readonly string[] },
): Promise<StackRunResult> {
  const held = heldIncidents(await stack.prepare());
  const fresh = newToTheState(upOptions, held);
  if (fresh.length === 0) return stack.run(args, "apply");
  stack.log(
    `Recording ${fresh.length} incident(s) new to stack ${stack.stackName} in its state before applying them, so that a run killed midway cannot forget what it adopted.`,
  );
  const claims = await claimRounds(stack, args, fresh);
  if (claims.unrecorded === undefined) return stoppedBeforeApply(claims.first, claims.ms);
  const { unrecorded } = claims;
  if (unrecorded.size > 0) {
    stack.log(
      `Still could not record ${describeUnrecorded(unrecorded)}: this run leaves ${unrecorded.size === 1 ? "it" : "them"} out, so nothing is adopted without a record; the next up tries again.`,
    );
  }
  const applied = await stack.run(
    [...args, ...excludeArgs(stack.bareName, stack.project, unrecorded.keys())],
    "apply",
  );
  const recorded = new Set(fresh.filter((name) => !unrecorded.has(name)));
  return withUnrecorded(adoptionsOf(applied, recorded, claims.ms), unrecorded);
}

/** The names to claim: declared, not in the state, and not held under an earlier name. */
function newToTheState(upOptions: UpOptions & { claim: readonly string[] }, held: Set<string>) {
  const renamed = (name: string) =>
    (upOptions.aliases?.[name] ?? []).some((alias) => held.has(alias));
  return upOptions.claim.filter((name) => !held.has(name) && !renamed(name));
}

/**
 * Claims `names`, then once more those not recorded. What was recorded is read back from the
 * state, whatever the claim run's exit code says; `unrecorded` is undefined when stopped.
 */
async function claimRounds(stack: ClaimingStack, args: string[], names: readonly string[]) {
  const claim = async (wanted: readonly string[]) => {
    const claimed = await stack.run(
      [...args, ...targetArgs(stack.bareName, stack.project, wanted)],
      "claim",
    );
    const state = stack.aborted() ? undefined : await stack.exportState();
    return { claimed, unrecorded: state ? unrecordedAfter(claimed, wanted, state) : undefined };
  };
  const first = await claim(names);
  let ms = first.claimed.durationMs;
  let unrecorded: Map<string, Unrecorded> | undefined = first.unrecorded;
  if (unrecorded && unrecorded.size > 0) {
    stack.log(`Could not record ${describeUnrecorded(unrecorded)}; trying once more.`);
    const again = await claim([...unrecorded.keys()]);
    ms += again.claimed.durationMs;
    unrecorded = again.unrecorded;
  }
  return { first: first.claimed, ms, unrecorded };
}

/**
 * The apply after a claim, told as one run: the update that adopts a claimed incident is its
 * create, and the claim's time is part of the run's.
 */
function adoptionsOf(
  applied: StackRunResult,
  claimed: ReadonlySet<string>,
  claimMs: number,
): StackRunResult {
  const incidents = applied.incidents.map((step) =>
    claimed.has(step.resource) && step.op === "update"
      ? { ...step, op: "create" as const, diffs: [] }
      : step,
  );
  const changes: StackRunResult["changes"] = {};
  for (const step of incidents) changes[step.op] = (changes[step.op] ?? 0) + 1;
  return { ...applied, incidents, changes, durationMs: applied.durationMs + claimMs };
}

/**
 * A run stopped (a signal, the deadline) after its claim and before its apply: nothing was
 * applied, whatever the claim recorded, so no incident shows as adopted.
 */
function stoppedBeforeApply(claimed: StackRunResult, claimMs: number): StackRunResult {
  return {
    ...claimed,
    ok: false,
    exitCode: claimed.exitCode || 1,
    changed: false,
    incidents: [],
    changes: {},
    durationMs: claimMs,
  };
}
