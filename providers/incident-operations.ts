import type * as pulumi from "@pulumi/pulumi";
import type { Lease } from "../src/api";
import {
  checkInputs,
  type IncidentInputs,
  type IncidentRecord,
  next,
  type State,
} from "../src/incident";
import { API_KEY_SETTING, configKey, readStackSettings } from "../src/settings";
import {
  createRunSession,
  inRun,
  monotonic,
  PROVIDER_SOURCE,
  type ProviderSession,
  type RunSession,
  runOf,
  send,
} from "./provider-session";

/*
 * Each Pulumi call as an operation of `src/incident`'s machine, carried out step by step:
 * the machine decides, `send` sends. Providers stored by earlier releases call these
 * functions with a session of their own.
 */

/** The state of an applied incident: `IncidentRecord`, internal to the package. */
export type IncidentState = IncidentRecord;
/** The provider as the dynamic provider plugin calls it, and the session it keeps. */
export type IncidentProvider = pulumi.dynamic.ResourceProvider<IncidentInputs, IncidentRecord> &
  ProviderSession;
export type { IncidentInputs, ProviderSession, RunSession };
export { createRunSession };

/**
 * A provider with a session of its own: what the text stored in every incident's state
 * (`PROVIDER_SOURCE`) hands the dynamic provider plugin, which calls it once per distinct
 * stored text in a plugin process, and `configure` once on what it returns.
 */
export function provider(run?: RunSession): IncidentProvider {
  const self: IncidentProvider = {
    ...(run ? { run } : {}),
    configure: (request) => configure(self, request),
    check: (olds, news) => check(self, olds, news),
    diff: (_id, olds, news) => diff(self, olds, news),
    create: (inputs) => create(self, inputs),
    update: (_id, olds, news) => update(self, olds, news),
    read: (id, props) => read(self, id, props),
    delete: async (_id, props) => {
      await remove(self, props);
    },
  };
  return self;
}

/** The part of Pulumi's configure request the provider reads. */
export interface ConfigureRequest {
  config: { get(key: string): string | undefined };
}

export async function configure(session: ProviderSession, request: ConfigureRequest) {
  session.settings = readStackSettings((name) => request.config.get(configKey(name)));
  session.apiKey = request.config.get(configKey(API_KEY_SETTING));
  if (!session.apiKey) {
    throw new Error(
      `The stack config has no API key: set it as a secret with \`pulumi config set --secret ${configKey(API_KEY_SETTING)}\` (the value is read from standard input when omitted).`,
    );
  }
}

/** The inputs parsed once (`checkInputs`); every id declared is remembered for this run. */
export async function check(
  session: ProviderSession,
  olds: Partial<IncidentInputs>,
  news: unknown,
): Promise<pulumi.dynamic.CheckResult<IncidentInputs>> {
  const checked = checkInputs(olds, news, { accountId: session.settings?.accountId });
  if ("inputs" in checked && checked.inputs.incidentId) {
    runOf(session).declared.add(checked.inputs.incidentId);
  }
  return checked;
}

export async function diff(session: ProviderSession, olds: IncidentRecord, news: IncidentInputs) {
  const enforce = session.settings?.enforce ?? "observed";
  const { changes, replace } = await carryOut(session, { op: "diff", olds, news, enforce });
  // Two resources never manage one incident: the old one lets go before the new one adopts.
  return { changes, replaces: replace ? ["incidentId"] : [], deleteBeforeReplace: replace };
}

/** Adopts the declared incident or opens a new one; in the claim run, only records it. */
export async function create(session: ProviderSession, inputs: IncidentInputs) {
  const { id, record } = inputs.claimOnly
    ? await carryOut(session, { op: "claim", inputs })
    : await carryOut(session, { op: "apply", inputs, olds: undefined });
  return { id, outs: record };
}

export async function update(session: ProviderSession, olds: IncidentRecord, news: IncidentInputs) {
  const { record } = await carryOut(session, { op: "apply", inputs: news, olds });
  return { outs: record };
}

/** `pulumi refresh`: the live status from the incident's updates, by the one rule. */
export async function read(session: ProviderSession, id: string, props?: IncidentRecord) {
  if (!props) return { id };
  return { id, props: (await carryOut(session, { op: "refresh", id, record: props })).record };
}

/** Deletes a resource as the machine's removal decides: release, or resolve. */
export async function remove(session: ProviderSession, record: IncidentRecord) {
  return (await carryOut(session, { op: "remove", record })).outcome;
}

type Operation = Extract<State, { op: string }>;
type Asked = Operation extends infer O ? (O extends Operation ? Omit<O, "context"> : never) : never;
type Result = Extract<ReturnType<typeof next>["step"], { kind: "done" }>["result"];

/**
 * Runs an operation to its end: each step sent, its answer fed back. A refusal is the one
 * error a Pulumi user reads, with what was done before it kept (Pulumi's partial failure),
 * so the state still records an incident opened or an update posted.
 */
async function carryOut<O extends Asked>(
  session: ProviderSession,
  operation: O,
): Promise<Extract<Result, { op: O["op"] }>> {
  const leases: Lease[] = [];
  // What the leases' next holders learn; an operation that throws settles nothing it sent.
  const outcome: Parameters<Lease["release"]>[0] = { settled: false };
  const context = {
    accountId: session.settings?.accountId ?? "",
    inRun: inRun(session),
    onPageChange: session.settings?.onPageChange,
  };
  let state = { ...operation, context } as State;
  let answer: Parameters<typeof next>[1] = { kind: "begin", at: Date.now(), clock: monotonic() };
  try {
    for (;;) {
      const moved = next(state, answer);
      const { step } = moved;
      state = moved.state;
      if (step.kind !== "done" && step.kind !== "refuse") {
        answer = await send(session, step, leases);
        continue;
      }
      // The plugin has no channel to the engine's log but its stderr.
      for (const note of step.notes) process.stderr.write(`incident-sync: ${note}\n`);
      outcome.settled = true;
      const made = step.kind === "done" ? step.result : step.keep;
      const incidentId = made && "record" in made ? made.record.incidentId : "";
      if (incidentId) outcome.made = { incidentId };
      if (step.kind === "done") return step.result as Extract<Result, { op: O["op"] }>;
      const unanswered = step.keep?.record.unanswered ?? step.unanswered;
      if (unanswered) outcome.unanswered = unanswered;
      const properties = step.keep && { ...step.keep.record, __provider: PROVIDER_SOURCE };
      const kept = step.keep ? { id: step.keep.id, properties, reasons: [step.message] } : {};
      throw Object.assign(new Error(step.message), kept);
    }
  } finally {
    // The next holder learns of a write that got no answer, which may still be made.
    for (const lease of leases.reverse()) lease.release(outcome);
  }
}
