import * as pulumi from "@pulumi/pulumi";
import type { MockResourceArgs, MockResourceResult } from "@pulumi/pulumi/runtime";
import type {
  IncidentInputs,
  IncidentState,
  ProviderSession,
} from "../../../providers/incident-operations";
import * as operations from "../../../providers/incident-operations";
import { INCIDENT_TYPE } from "../../../src/incident";
import { configKey } from "../../../src/settings";

/** The organization the mocked stack `unit` of project `incident-sync` belongs to. */
export const MOCK_ORGANIZATION = "acme";

/**
 * The SDK's wait for its outstanding registrations, which the language host does before a
 * program exits: a program whose outputs depend on no resource (the claim run's) returns
 * before its resources are even registered.
 */
const { waitForRPCs } = require("@pulumi/pulumi/runtime/settings") as {
  waitForRPCs: () => Promise<void>;
};

/** What one run did to one incident resource, as the engine's step would have. */
export interface MockStep {
  name: string;
  op: "same" | "create" | "update" | "replace" | "delete";
  /** For an update or replace: the inputs that differ from the last run's, as the engine lists them. */
  diffs?: string[];
  /** The check failure's reasons, or the step's error, when it failed. */
  error?: string;
}

/** One program run under the mocks: its steps, its stack outputs, what it logged. */
export interface MockRun {
  steps: MockStep[];
  /** The stack outputs, resolved; absent when the program failed. */
  outputs?: Record<string, unknown>;
  /** Why the run failed, when it did: the program's error, or the failed steps. */
  error?: string;
  /** `pulumi.log.warn` messages, in order. */
  warnings: string[];
}

interface Stored {
  id: string;
  inputs: IncidentInputs;
  state: IncidentState;
}

/**
 * Pulumi's unit-test mocks (`pulumi.runtime.setMocks`) with the engine's part played in
 * process: each `Incident` the program registers goes through the provider's own operations
 * (check, diff, create or update) against the API, with the state of the previous run kept
 * here, and resources a run no longer declares are deleted after it. So one test drives the
 * program and the provider as `pulumi preview`/`up` do, without the CLI, language host or
 * plugin processes. What only the engine does (ordering, locks, checkpoints, aliases) stays
 * with the engine tests.
 */
export class MockEngine {
  private readonly state = new Map<string, Stored>();
  /** The checked inputs of each incident's step in the last run, as the engine reports them. */
  private readonly lastInputs = new Map<string, IncidentInputs>();

  constructor(private readonly config: Record<string, string>) {}

  /** The stored state of an incident resource, by resource name. */
  stateOf(name: string): IncidentState | undefined {
    return this.state.get(name)?.state;
  }

  /** The inputs of an incident's step in the last run (preview included), by resource name. */
  inputsOf(name: string): IncidentInputs | undefined {
    return this.lastInputs.get(name);
  }

  /**
   * The whole state, to put back with `restore`: a run killed before the engine wrote its
   * state (checkpoints skipped) leaves the state as it was before that run.
   */
  snapshot(): ReadonlyMap<string, Stored> {
    return new Map(this.state);
  }

  restore(snapshot: ReadonlyMap<string, Stored>): void {
    this.state.clear();
    for (const [name, stored] of snapshot) this.state.set(name, stored);
  }

  /**
   * Runs `program` once as `pulumi up` (or `preview`), with `settings` added to the stack
   * config under `incident-sync:`.
   */
  async run(
    program: () => Promise<Record<string, unknown>>,
    options: { preview?: boolean; settings?: Record<string, string> } = {},
  ): Promise<MockRun> {
    const preview = options.preview ?? false;
    const config: Record<string, string> = { ...this.config };
    for (const [name, value] of Object.entries(options.settings ?? {})) {
      config[configKey(name)] = value;
    }
    const session = await this.session(config);
    const steps: MockStep[] = [];
    const registered = new Set<string>();
    const pending: Promise<unknown>[] = [];
    const newResource = (args: MockResourceArgs): Promise<MockResourceResult> => {
      const step = this.register(args, session, preview, steps, registered);
      pending.push(step.catch(() => undefined));
      return step;
    };
    await pulumi.runtime.setMocks(
      { newResource, call: () => ({}) },
      "incident-sync",
      "unit",
      preview,
      MOCK_ORGANIZATION,
    );
    pulumi.runtime.setAllConfig(config, [configKey("apiKey")]);

    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: unknown) => {
      warnings.push(String(message).replace(/^warning: \[runtime\] /, ""));
    };
    // The language host fails the run on a rejection nobody handled, reporting it once; the
    // SDK leaves one such rejection for every output derived from a failed one. Here too they
    // are the run's, not the test runner's.
    const unhandled: unknown[] = [];
    const runnerListeners = process.listeners("unhandledRejection");
    process.removeAllListeners("unhandledRejection");
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const run: MockRun = { steps, warnings };
    try {
      const declared = await program();
      // In a preview the outputs are unknown, but waiting for them waits for every
      // registration they depend on.
      const outputs = await resolved(declared);
      run.outputs = preview ? undefined : outputs;
    } catch (error) {
      run.error = messageOf(error);
    } finally {
      // Registrations and warnings the outputs did not wait for.
      await waitForRPCs();
      await Promise.all(pending);
      await new Promise((resolve) => setImmediate(resolve));
      console.warn = warn;
      process.off("unhandledRejection", onUnhandled);
      for (const listener of runnerListeners) process.on("unhandledRejection", listener);
    }
    if (run.error === undefined && unhandled.length > 0) run.error = messageOf(unhandled[0]);
    const failures = failuresOf(run);
    if (failures.length > 0) run.error ??= failures.join("\n");
    if (!preview && run.error === undefined) {
      for (const [name, stored] of this.state) {
        if (registered.has(name)) continue;
        try {
          await operations.remove(session, stored.state);
          this.state.delete(name);
          steps.push({ name, op: "delete" });
        } catch (error) {
          steps.push({ name, op: "delete", error: messageOf(error) });
        }
      }
    }
    return run;
  }

  /**
   * `pulumi refresh`: the provider's `read` of every incident in the state, the state taking
   * what it returns. The steps say which incidents it changed.
   */
  async refresh(): Promise<MockStep[]> {
    const session = await this.session(this.config);
    const steps: MockStep[] = [];
    for (const [name, stored] of this.state) {
      try {
        const read = await operations.read(session, stored.id, stored.state);
        const state = read.props as IncidentState;
        const diffs = changedKeys(
          stored.state as unknown as IncidentInputs,
          state as unknown as IncidentInputs,
        );
        this.state.set(name, { ...stored, state });
        steps.push({ name, op: diffs.length > 0 ? "update" : "same", diffs });
      } catch (error) {
        steps.push({ name, op: "update", error: messageOf(error) });
      }
    }
    return steps;
  }

  private async session(config: Record<string, string>): Promise<ProviderSession> {
    // Each run is a run of the engine: one plugin process, and what it knows of the run.
    const session: ProviderSession = { run: operations.createRunSession() };
    await operations.configure(session, { config: { get: (key) => config[key] } });
    return session;
  }

  private async register(
    args: MockResourceArgs,
    session: ProviderSession,
    preview: boolean,
    steps: MockStep[],
    registered: Set<string>,
  ): Promise<MockResourceResult> {
    if (args.type !== INCIDENT_TYPE) return { id: `${args.name}-id`, state: args.inputs };
    registered.add(args.name);
    const { __provider: _provider, ...news } = args.inputs as Record<string, unknown>;
    const prior = this.state.get(args.name);
    // A failed step leaves the resource as it was, as the engine does, unless the provider
    // kept what it did (a partial failure: an error with `id` and `properties`, which the
    // engine records as the resource's state); the run then fails (see `run`). Throwing here
    // instead would reject every output of the resource at once.
    const fail = (error: string, partial?: PartialFailure): MockResourceResult => {
      steps.push({ name: args.name, op: prior ? "update" : "create", error });
      if (partial && checked.inputs) {
        const { __provider: _stored, ...state } = partial.properties;
        const id = prior?.id ?? partial.id;
        this.state.set(args.name, {
          id,
          inputs: checked.inputs,
          state: state as unknown as IncidentState,
        });
        return { id, state };
      }
      return prior ? { id: prior.id, state: prior.state } : { id: undefined, state: news };
    };
    const checked = await operations.check(session, prior?.inputs ?? {}, news);
    const failed = (error: unknown) => fail(messageOf(error), partialOf(error));
    if (!checked.inputs || (checked.failures?.length ?? 0) > 0) {
      return fail((checked.failures ?? []).map((failure) => failure.reason).join("; "));
    }
    const inputs = checked.inputs as IncidentInputs;
    this.lastInputs.set(args.name, inputs);
    if (!prior) {
      if (preview) {
        steps.push({ name: args.name, op: "create" });
        return { id: undefined, state: inputs };
      }
      try {
        const created = await operations.create(session, inputs);
        const state = created.outs as IncidentState;
        this.state.set(args.name, { id: created.id, inputs, state });
        steps.push({ name: args.name, op: "create" });
        return { id: created.id, state };
      } catch (error) {
        return failed(error);
      }
    }
    const diff = await operations.diff(session, prior.state, inputs);
    const op = (diff.replaces ?? []).length > 0 ? "replace" : diff.changes ? "update" : "same";
    const diffs = op === "same" ? undefined : changedKeys(prior.inputs, inputs);
    if (op === "same" || preview) {
      steps.push({ name: args.name, op, ...(diffs ? { diffs } : {}) });
      return { id: prior.id, state: prior.state };
    }
    try {
      if (op === "replace") {
        await operations.remove(session, prior.state);
        const created = await operations.create(session, inputs);
        this.state.set(args.name, {
          id: created.id,
          inputs,
          state: created.outs as IncidentState,
        });
      } else {
        const updated = await operations.update(session, prior.state, inputs);
        this.state.set(args.name, { id: prior.id, inputs, state: updated.outs as IncidentState });
      }
    } catch (error) {
      return failed(error);
    }
    steps.push({ name: args.name, op, ...(diffs ? { diffs } : {}) });
    const stored = this.state.get(args.name);
    return { id: stored?.id, state: stored?.state ?? {} };
  }
}

/** The ops of a run other than `same`, by operation: `{ update: 1 }`. */
export function changesOf(run: MockRun): Record<string, number> {
  const changes: Record<string, number> = {};
  for (const step of run.steps) {
    if (step.op === "same" || step.error !== undefined) continue;
    changes[step.op] = (changes[step.op] ?? 0) + 1;
  }
  return changes;
}

/** Failed steps, as `name: reason`. */
export function failuresOf(run: MockRun): string[] {
  return run.steps.flatMap((step) =>
    step.error === undefined ? [] : [`${step.name}: ${step.error}`],
  );
}

/**
 * The outputs' values. Every output is waited for, so a failed one leaves nothing of the run
 * still in flight; the first failure is the run's error.
 */
async function resolved(outputs: Record<string, unknown>): Promise<Record<string, unknown>> {
  const entries = Object.entries(outputs).map(
    ([key, value]) => [key, pulumi.output(value)] as const,
  );
  const settled = await Promise.allSettled(entries.map(([, output]) => outputValue(output)));
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return Object.fromEntries(
    entries.map(([key], index) => {
      const result = settled[index];
      return [key, result?.status === "fulfilled" ? result.value : undefined];
    }),
  );
}

/**
 * An output's value (undefined while unknown, as in a preview), through the SDK's own
 * `promise()`, which Pulumi's unit-testing guide reads outputs with too; it is not in the
 * SDK's public types.
 */
function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  const internal = output as unknown as OutputInternals<T>;
  // An output that fails rejects its isKnown and isSecret too, which nobody else awaits here
  // (the language host would report the program's failure once).
  internal.isKnown.catch(() => undefined);
  internal.isSecret.catch(() => undefined);
  return internal.promise();
}

/** What every `Output` has at run time beyond its public type. */
interface OutputInternals<T> {
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  promise(): Promise<T>;
}

/** The top-level inputs whose values differ, as the engine diffs a provider's inputs. */
function changedKeys(olds: IncidentInputs, news: IncidentInputs): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  const before = olds as unknown as Record<string, unknown>;
  const after = news as unknown as Record<string, unknown>;
  // As the engine's report shows them (src/engine/engine-events.ts): an observation that
  // differs only in `changedAt` or `shown` saw nothing new.
  const seen = (inputs: Record<string, unknown>, key: string) => {
    const value = inputs[key];
    if (key !== "observed" || typeof value !== "object" || value === null) {
      return JSON.stringify(value);
    }
    const { changedAt: _changedAt, shown: _shown, ...rest } = value as Record<string, unknown>;
    return JSON.stringify(rest);
  };
  return [...keys].filter((key) => seen(before, key) !== seen(after, key)).sort();
}

/** What the dynamic provider plugin hands the engine of a partial failure. */
interface PartialFailure {
  id: string;
  properties: Record<string, unknown>;
}

function partialOf(error: unknown): PartialFailure | undefined {
  const { id, properties } = (error ?? {}) as Partial<PartialFailure>;
  return typeof id === "string" && id !== "" && properties ? { id, properties } : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
