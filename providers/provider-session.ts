import { readFileSync } from "node:fs";
import { ApiError, createClient, type Lease, type MonitoringClient, takeLease } from "../src/api";
import { type Monotonic, type Reply, type Step, servicesNamedFromCatalog } from "../src/incident";
import {
  API_KEY_SETTING,
  clientOptionsOf,
  configKey,
  definitionsDirectory,
  runErrorMessage,
  type StackSettings,
} from "../src/settings";
import { UserError } from "../src/user-error";

type Listed = Omit<Extract<Reply, { kind: "listed" }>, "inRun">;

/**
 * The provider every incident's state stores: a line that loads the operations by package name
 * from the project directory (`createRequire`: the plugin compiles it with no file name), so
 * the state holds no code, path or key, and the current checkout's code always runs.
 */
export const PROVIDER_SOURCE =
  'exports.handler = () => require("node:module").createRequire(require("node:path").join(process.cwd(), "package.json"))("incident-sync/provider-operations").provider();';

/**
 * What one run of the engine tells the provider across its resources: the incident ids the
 * program declares (`check` sees every one before the engine deletes those no longer
 * declared), those a resource took, and the service's incidents, read once when one is opened.
 */
export interface RunSession {
  readonly declared: Set<string>;
  readonly taken: Set<string>;
  incidents?: Promise<Listed> | undefined;
}

export function createRunSession(): RunSession {
  return { declared: new Set(), taken: new Set() };
}

/** What one provider instance keeps in the plugin process: never serialized, never in state. */
export interface ProviderSession {
  /** The stack settings and the secret API key, from `configure`; the client, on first use. */
  settings?: StackSettings;
  apiKey?: string;
  api?: MonitoringClient;
  /** The run it serves; a provider stored by an earlier release gets the plugin's (`runOf`). */
  run?: RunSession;
}

// One plugin process serves one run of the engine, whichever stored providers it loads.
const pluginRun = createRunSession();

export function runOf(session: ProviderSession): RunSession {
  session.run ??= pluginRun;
  return session.run;
}

/** The incident ids this run declares or took: another resource's, not to open or resolve. */
export function inRun(session: ProviderSession): Set<string> {
  const run = runOf(session);
  return new Set([...run.declared, ...run.taken]);
}

// One client per plugin process, shared by every resource: one rate limit and one
// concurrency cap, and no per-resource setup.
function client(session: ProviderSession): MonitoringClient {
  const { settings, apiKey } = session;
  if (!settings || !apiKey) {
    throw new Error(
      `The incident provider has no connection: set ${configKey("baseUrl")}, ${configKey("accountId")} and the secret ${configKey(API_KEY_SETTING)} in the stack config.`,
    );
  }
  session.api ??= createClient(clientOptionsOf(settings, apiKey));
  return session.api;
}

/**
 * Sends one step of the machine and answers what came back. A failure the person running it
 * can act on is an answer too, its message put in the stack's terms here, once; a lease that
 * cannot be had (`UnsafeLedgerPath`: the runtime folder) stops the operation with its error.
 */
export async function send(
  session: ProviderSession,
  step: Exclude<Step, { kind: "done" | "refuse" }>,
  leases: Lease[],
): Promise<Reply & { at: number; clock?: Monotonic | undefined }> {
  const at = Date.now();
  const clock = monotonic();
  try {
    return { at, clock, ...(await carry(session, step, leases, { at, clock })) };
  } catch (error) {
    if (!(error instanceof UserError) || step.kind === "lease") throw error;
    const text = error instanceof ApiError ? runErrorMessage(error) : error.message;
    return { at, clock, kind: "failed", error, text };
  }
}

let boot: string | undefined | null = null;

/**
 * The machine's monotonic clock (`process.hrtime`, which every process of one boot shares),
 * with the boot it counts from; none where the system does not name its boots.
 */
export function monotonic(): Monotonic | undefined {
  if (boot === null) {
    try {
      boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
    } catch {
      boot = undefined;
    }
  }
  return boot === undefined
    ? undefined
    : { boot, ms: Number(process.hrtime.bigint() / 1_000_000n) };
}

async function carry(
  session: ProviderSession,
  step: Parameters<typeof send>[1],
  leases: Lease[],
  sent: { at: number; clock: Monotonic | undefined },
): Promise<Reply> {
  const api = () => client(session).incidents;
  const { settings } = session;
  switch (step.kind) {
    case "lease": {
      const scope = { baseUrl: settings?.baseUrl ?? "", accountId: settings?.accountId };
      const lease = await takeLease(scope, step.key);
      leases.push(lease);
      const { releasedAt, unanswered, made } = lease;
      return { kind: "leased", releasedAt, unanswered, made };
    }
    case "list":
      return { ...(await listed(session, step.fresh)), inRun: inRun(session) };
    case "get":
      return { kind: "incident", incident: await api().get(step.incidentId) };
    case "list-updates":
      return { kind: "updates", updates: await api().listUpdates(step.incidentId) };
    case "take": {
      const { taken } = runOf(session);
      const took = !taken.has(step.incidentId);
      taken.add(step.incidentId);
      return { kind: took ? "took" : "taken" };
    }
    case "catalog": {
      const dir = definitionsDirectory(settings);
      return {
        kind: "named",
        services: await servicesNamedFromCatalog(step.incidentId, step.services, dir),
      };
    }
    case "services": {
      const ids = new Set<string>();
      for await (const page of client(session).services.pages()) {
        for (const service of page.entries) ids.add(service.id);
      }
      return { kind: "services", ids };
    }
    case "open":
      intend(leases, step, sent);
      return { kind: "incident", incident: await api().create(step.body) };
    case "put":
      return { kind: "incident", incident: await api().update(step.incidentId, step.body) };
    case "post":
      intend(leases, step, sent);
      return { kind: "update", update: await api().postUpdate(step.incidentId, step.body) };
    case "edit": {
      const { incidentId, updateId, body } = step;
      return { kind: "update", update: await api().changeUpdate(incidentId, updateId, body) };
    }
  }
}

/** A create's or a post's intent, recorded under its lease before anything is sent. */
function intend(
  leases: readonly Lease[],
  step: Extract<Step, { kind: "open" | "post" }>,
  { at, clock }: { at: number; clock: Monotonic | undefined },
) {
  const { lease: key, entry, resource } = step.intent;
  const lease = leases.find((held) => held.key === key);
  if (lease === undefined) {
    throw new Error(
      `incident-sync: a write under the lease ${key}, which the operation does not hold (a bug; please report it).`,
    );
  }
  // A post names the incident made: a kill after it leaves must not leave it to a lagging list.
  const made = step.kind === "post" ? { incidentId: step.incidentId } : undefined;
  lease.intend(
    { entry, at: new Date(at).toISOString(), resource, ...(clock ? { clock } : {}) },
    made,
  );
}

/** Every incident the service lists, read once for the run (again when `fresh`). */
function listed(session: ProviderSession, fresh: boolean): Promise<Listed> {
  const run = runOf(session);
  if (fresh) run.incidents = undefined;
  run.incidents ??= (async () => {
    const readAt = Date.now();
    const incidents: Listed["incidents"] = { entries: [], skipped: [] };
    for await (const page of client(session).incidents.pages()) {
      incidents.entries.push(...page.entries);
      incidents.skipped.push(...page.skipped);
    }
    return { kind: "listed" as const, incidents, readAt };
  })();
  const read = run.incidents;
  // A failed read is not kept: the next opening reads again.
  read.catch(() => {
    if (run.incidents === read) run.incidents = undefined;
  });
  return read;
}
