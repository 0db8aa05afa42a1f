import { INCIDENT_TYPE } from "../incident";
import type { EngineRunEvents, IncidentStep } from "./engine-events";

/*
 * No adoption without a record (`src/incident/claim.ts`): what the claim run recorded is read
 * back from the state, not assumed from its exit code, and an incident it could not record is
 * left out of the apply (`--exclude`), so a run killed later cannot have adopted it unrecorded.
 */

/** What a state export says of its resources. */
interface StateResources {
  readonly deployment: { readonly resources?: readonly { urn: string; type: string }[] };
}

/** What a run of the engine tells of itself. */
interface EngineRun extends EngineRunEvents {
  ok: boolean;
  exitCode: number;
  stderr: string;
}

/** The incident resources a state holds, by resource name. */
export function heldIncidents(state: StateResources): Set<string> {
  return new Set(
    (state.deployment.resources ?? [])
      .filter((resource) => resource.type === INCIDENT_TYPE)
      .map((resource) => resource.urn.slice(resource.urn.lastIndexOf("::") + 2)),
  );
}

/** Why an incident was not recorded: its own step's error, or what failed the claim run. */
export interface Unrecorded {
  readonly reason: string;
  /** The reason is the incident's own (its claim failed), not the whole run's. */
  readonly own: boolean;
  /** Its inputs as the claim run saw them: whether it adopts or opens an incident. */
  readonly inputs?: Record<string, unknown>;
}

/** The names of `wanted` the state does not hold after a claim run, each with why. */
export function unrecordedAfter(
  claim: EngineRun,
  wanted: readonly string[],
  state: StateResources,
): Map<string, Unrecorded> {
  const held = heldIncidents(state);
  const steps = new Map(claim.incidents.map((step) => [step.resource, step]));
  const whole =
    claim.diagnostics.find((diagnostic) => diagnostic.severity === "error")?.message ??
    lastLine(claim.stderr) ??
    (claim.ok
      ? "the claim run did not record it"
      : `the claim run failed (pulumi up exited ${claim.exitCode})`);
  return new Map(
    wanted
      .filter((name) => !held.has(name))
      .map((name) => {
        const step = steps.get(name);
        const why =
          step?.error === undefined
            ? { reason: whole, own: false }
            : { reason: step.error, own: true };
        return [name, step?.inputs ? { ...why, inputs: step.inputs } : why];
      }),
  );
}

/** `--exclude <urn>` for each incident resource named. */
export function excludeArgs(stack: string, project: string, names: Iterable<string>): string[] {
  return [...names].flatMap((name) => ["--exclude", incidentUrn(stack, project, name)]);
}

/** `--target <urn>` for each incident resource named. */
export function targetArgs(stack: string, project: string, names: Iterable<string>): string[] {
  return [...names].flatMap((name) => ["--target", incidentUrn(stack, project, name)]);
}

function incidentUrn(stack: string, project: string, name: string): string {
  return `urn:pulumi:${stack}::${project}::${INCIDENT_TYPE}::${name}`;
}

/** `inc-a, inc-b (the first error: why)`: the names, and the first reason given. */
export function describeUnrecorded(unrecorded: ReadonlyMap<string, Unrecorded>): string {
  const [first] = unrecorded.values();
  return `${[...unrecorded.keys()].join(", ")} (${unrecorded.size === 1 ? "" : "the first error: "}${first?.reason ?? ""})`;
}

/**
 * The apply's result with each incident left out for want of a record shown as failed (`not
 * adopted`), so the run fails and nothing reads as adopted: its error is its own claim's (an
 * incident that does not exist says so), or why the claim run failed as a whole.
 */
export function withUnrecorded<R extends EngineRun>(
  applied: R,
  unrecorded: ReadonlyMap<string, Unrecorded>,
): R {
  if (unrecorded.size === 0) return applied;
  const others = applied.incidents.filter((step) => !unrecorded.has(step.resource));
  const failed = [...unrecorded].map(([resource, why]): IncidentStep => {
    // The apply left it out, so its step there (a `same` with empty inputs) tells nothing.
    const incidentId = why.inputs?.incidentId;
    return {
      resource,
      op: "create",
      diffs: [],
      warnings: [],
      ...(why.inputs ? { inputs: why.inputs } : {}),
      ...(typeof incidentId === "string" ? { incidentId } : {}),
      error: why.own
        ? why.reason
        : `it could not be recorded in the stack's state first, and nothing is adopted without a record (${why.reason}); the next up tries again`,
    };
  });
  const incidents = [...others, ...failed];
  const changes: EngineRunEvents["changes"] = {};
  for (const step of incidents) changes[step.op] = (changes[step.op] ?? 0) + 1;
  return { ...applied, incidents, changes, ok: false, exitCode: applied.exitCode || 1 };
}

function lastLine(text: string): string | undefined {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .at(-1) ?? undefined
  );
}
