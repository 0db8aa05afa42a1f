import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import {
  ApiError,
  createClient,
  type IncidentStatus,
  type IncidentUpdate,
  knownStatus,
  type MonitoringClient,
  NotFoundError,
} from "../src/api";
import {
  checkDeclaration,
  decideApply,
  type IncidentDeclaration,
  type LiveStatus,
  liveStatusObserved,
  liveStatusOf,
  type Observation,
  reopenMessage,
  reopenRefused,
  reopenWithoutFlagMessage,
  requestOf,
  servicesNamedFromCatalog,
  statusToSend,
  unnamedServices,
  unnamedServicesMessage,
  updateForState,
  updatesAfter,
} from "../src/incident";
import {
  API_KEY_SETTING,
  apiErrorMessage,
  clientOptionsOf,
  configKey,
  readStackSettings,
  runSettingsContext,
  SETTINGS,
  type StackSettings,
} from "../src/settings";

/*
 * The operations of the incident provider. The serialized provider in `incident.ts` loads this
 * module by package name in the engine's plugin process, never serialized into the state, so
 * it imports what it needs like any module. Every rule it applies lives in `src/incident`.
 */

/** Inputs as the provider receives them (after `check`). */
export interface IncidentInputs extends IncidentDeclaration {
  /** The incident-sync release that declared them: a new release re-applies and re-records. */
  providerVersion: string;
  /** What the program read of the incident's updates in this run (absent with `readBack: open` for resolved incidents). */
  observed?: Observation;
  /** Record the incident in the state, apply nothing: the claim run of `src/incident/claim.ts`. */
  claimOnly?: true;
}

/** The live status as the provider last knew it. */
export interface KnownLiveStatus {
  status: IncidentStatus;
  /** When it was known: the PUT's server time, or the refresh's read. */
  at: string;
  /** `update`: an update posted on the status page says so; `applied`: the last PUT set it. */
  source: "update" | "applied";
}

/** State of an applied incident: its declaration plus what the server said. */
export interface IncidentState extends IncidentDeclaration {
  providerVersion: string;
  /** Server time of the last PUT (`updated_at`), else the provider's clock. */
  appliedAt: string;
  live: KnownLiveStatus;
  /**
   * The updates the last PUT returned that the program had not read before it (at most
   * `APPLIED_UPDATES_LIMIT`, usually none or the one the PUT posted), so the outputs describe the
   * status page after the apply without reading it again.
   */
  appliedUpdates: IncidentUpdate[];
  /**
   * Claimed, not yet applied (`src/incident/claim.ts`): `appliedAt` is empty and `live` is the
   * declared status, known to nobody. The next update adopts the incident.
   */
  claimed?: true;
}

const APPLIED_UPDATES_LIMIT = 5;

/** What one provider instance keeps in the plugin process: never serialized, never in state. */
export interface ProviderSession {
  /** The stack settings, from `configure`. */
  settings?: StackSettings;
  /** The API key, from the secret stack config in `configure`. */
  apiKey?: string;
  /** The client of this plugin process, made on first use after `configure`. */
  api?: MonitoringClient;
}

/** The provider as the dynamic provider plugin calls it, and the session it keeps. */
export type IncidentProvider = pulumi.dynamic.ResourceProvider<IncidentInputs, IncidentState> &
  ProviderSession;

/**
 * A provider with a session of its own: what the text stored in every incident's state
 * (`PROVIDER_SOURCE` in `incident.ts`) hands the dynamic provider plugin, which calls it once
 * per distinct stored text in a plugin process, and `configure` once on what it returns.
 */
export function provider(): IncidentProvider {
  const self: IncidentProvider = {
    configure: (request) => configure(self, request),
    check: (olds, news) => check(self, olds, news as unknown as Record<string, unknown>),
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

export async function configure(
  session: ProviderSession,
  request: ConfigureRequest,
): Promise<void> {
  session.settings = readStackSettings((name) => request.config.get(configKey(name)));
  session.apiKey = request.config.get(configKey(API_KEY_SETTING));
  if (!session.apiKey) {
    throw new Error(
      `The stack config has no API key: set it as a secret with \`pulumi config set --secret ${configKey(API_KEY_SETTING)}\` (the value is read from standard input when omitted).`,
    );
  }
}

export async function check(
  session: ProviderSession,
  olds: Partial<IncidentInputs>,
  news: Record<string, unknown>,
): Promise<pulumi.dynamic.CheckResult<IncidentInputs>> {
  const checked = checkDeclaration(news);
  if ("failures" in checked) return { failures: checked.failures };
  const { declaration } = checked;
  declaredInThisRun.add(declaration.incidentId);
  const unnamed = unnamedServices(declaration.services);
  if (unnamed.length > 0) {
    return {
      failures: [
        { property: "services", reason: unnamedServicesMessage(declaration.incidentId, unnamed) },
      ],
    };
  }
  const observed = news.observed as Observation | undefined;
  if (observed?.kind === "missing") {
    return {
      failures: [
        { property: "incidentId", reason: missingMessage(declaration.incidentId, session) },
      ],
    };
  }
  // Reopening a resolved incident notifies subscribers again: it has to be meant.
  if (reopenRefused(olds.status, declaration.status, declaration.reopen)) {
    return {
      failures: [
        {
          property: "status",
          reason: `incident ${declaration.incidentId}: ${reopenWithoutFlagMessage(declaration.status)}`,
        },
      ],
    };
  }
  return {
    inputs: {
      ...declaration,
      providerVersion: String(news.providerVersion ?? ""),
      ...(observed === undefined ? {} : { observed }),
      ...(news.claimOnly === true ? { claimOnly: true as const } : {}),
    },
  };
}

/**
 * Without a network call: what the program observed in this run is among the inputs. A reopen
 * the definition does not allow is reported as a change, not an error: the engine stops the
 * whole run on a diff error, whereas the update step refuses it alone (see `apply`), so every
 * other incident is still applied.
 */
export async function diff(
  session: ProviderSession,
  olds: IncidentState,
  news: IncidentInputs,
): Promise<pulumi.dynamic.DiffResult> {
  // The claim run records new incidents only; one already in the state is left as it is.
  if (news.claimOnly) return { changes: false };
  const decision = decideApply(olds, news, news.observed, session.settings?.enforce ?? "observed");
  const versionChanged = olds.providerVersion !== news.providerVersion;
  return {
    // A claimed incident is adopted by the first run that applies, whatever else it sees.
    changes: decision.apply || decision.replace || versionChanged || olds.claimed === true,
    replaces: decision.replace ? ["incidentId"] : [],
    // Two resources never manage one incident: the old one lets go before the new one adopts.
    deleteBeforeReplace: decision.replace,
  };
}

/**
 * The API has no create: the declared incident must exist, and create adopts it. In the claim
 * run it is only recorded, once a read has shown it exists: an id nobody can adopt is not
 * claimed, and its apply says why.
 */
export async function create(
  session: ProviderSession,
  inputs: IncidentInputs,
): Promise<pulumi.dynamic.CreateResult<IncidentState>> {
  if (inputs.claimOnly) {
    if (!(await exists(session, inputs.incidentId))) {
      throw new Error(missingMessage(inputs.incidentId, session));
    }
    return { id: inputs.incidentId, outs: claimedState(inputs) };
  }
  return { id: inputs.incidentId, outs: await apply(session, inputs, undefined) };
}

function claimedState(inputs: IncidentInputs): IncidentState {
  const { observed: _observed, claimOnly: _claimOnly, ...declared } = inputs;
  return {
    ...declared,
    appliedAt: "",
    live: { status: declared.status, at: "", source: "applied" },
    appliedUpdates: [],
    claimed: true,
  };
}

export async function update(
  session: ProviderSession,
  olds: IncidentState,
  news: IncidentInputs,
): Promise<pulumi.dynamic.UpdateResult<IncidentState>> {
  // A claimed incident was never applied: this update is its adoption.
  return { outs: await apply(session, news, olds.claimed ? undefined : olds) };
}

/** `pulumi refresh`: the live status from the incident's updates, by the one rule. */
export async function read(
  session: ProviderSession,
  id: string,
  props: IncidentState | undefined,
): Promise<pulumi.dynamic.ReadResult<IncidentState>> {
  if (!props) return { id };
  const updates = await listUpdatesOrMissing(session, id);
  const live = liveStatusOf(updates, { status: props.status, at: props.appliedAt });
  const state: IncidentState = {
    ...withoutLegacy(props),
    appliedUpdates: props.appliedUpdates ?? [],
    status: live.status ?? props.status,
    live: known(live, props.status, new Date().toISOString()),
  };
  return { id, props: state };
}

/**
 * The incident ids the program declares in this run of the engine: `check` is called for
 * every resource the program registers, before the engine deletes those it no longer
 * registers. One plugin process serves one run, whichever serialized provider (of whichever
 * release) a resource's state holds, so this lives in the module, not in a session.
 */
const declaredInThisRun = new Set<string>();

/** What `remove` did and why, for the engine's log and for tests. */
export type RemoveOutcome = "released" | "released-redeclared" | "resolved";

/**
 * `onRemove: resolve` PUTs RESOLVED; `release` lets go. A claimed incident is resolved too, as
 * the run that claimed it may have adopted it before it was killed; one that does not exist
 * was never adopted, and is let go. An incident that another resource of this run declares is
 * released whatever `onRemove` says: the old resource of a rename without `aliases` is deleted
 * after the new one took the incident over, and resolving it would tell customers an open
 * incident is over.
 */
export async function remove(
  session: ProviderSession,
  props: IncidentState,
): Promise<RemoveOutcome> {
  if (declaredInThisRun.has(props.incidentId)) {
    if (props.onRemove === "resolve") {
      // The dynamic provider's plugin has no channel to the engine's log but its stderr, which
      // the engine shows with the deletion's diagnostics.
      process.stderr.write(
        `incident-sync: incident ${props.incidentId} is released, not resolved: another resource of this stack now declares it (a resource renamed without \`aliases\`?). Add the old resource name to the definition's \`aliases\` to make a rename a no-op.\n`,
      );
    }
    return "released-redeclared";
  }
  if (props.onRemove !== "resolve") return "released";
  const named = await withCatalogNames(session, props);
  if (props.claimed && !(await exists(session, props.incidentId))) return "released";
  await put(session, named, "RESOLVED", props.appliedAt, missingOnRemoveMessage);
  return "resolved";
}

/** Forgets what `check` saw: a new run of the engine, in tests that run the operations in process. */
export function startRun(): void {
  declaredInThisRun.clear();
}

async function exists(session: ProviderSession, incidentId: string): Promise<boolean> {
  try {
    await client(session).incidents.listUpdates(incidentId);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw inPulumiTerms(error, incidentId, session);
  }
}

/**
 * The project directory, where Pulumi.yaml is, which `definitionsDir` is relative to: the
 * engine's root directory when it says, else the nearest directory up from the working
 * directory (the language host's is that of `main`, dist/) that holds a Pulumi.yaml.
 */
function projectRoot(): string {
  const root = process.env.PULUMI_ROOT_DIRECTORY;
  if (root) return root;
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "Pulumi.yaml")) || existsSync(join(dir, "Pulumi.yml"))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/**
 * State written before service names were required (0.1, 0.2) may hold a service without one,
 * and a deleted definition cannot give it: the services catalog of the definitions directory
 * (the plugin runs in the project directory) names it.
 */
async function withCatalogNames(
  session: ProviderSession,
  props: IncidentState,
): Promise<IncidentState> {
  if (unnamedServices(props.services).length === 0) return props;
  const dir = resolve(
    projectRoot(),
    session.settings?.definitionsDir ?? SETTINGS.definitionsDir.default,
  );
  return {
    ...props,
    services: await servicesNamedFromCatalog(props.incidentId, props.services, dir),
  };
}

/**
 * Create and update: PUT the declaration, sending the status only when the live status
 * differs, and never reopening a live RESOLVED the definition does not allow to reopen. When
 * this run could not observe the incident, the live status is read here first.
 *
 * Whether the service's PUT posts a status update or only sets `lastUpdateStatus` is not
 * documented, and with the second the updates can show an older status than the live one. The
 * PUT's answer always holds the live `lastUpdateStatus`: a PUT without a status comes first,
 * the guard is checked against its answer, and only then is an open status sent, in a second
 * PUT. The apply converges in one run under either behaviour and never reopens blindly.
 */
async function apply(
  session: ProviderSession,
  inputs: IncidentInputs,
  olds: IncidentState | undefined,
): Promise<IncidentState> {
  const applied = olds ? { status: olds.status, at: olds.appliedAt } : undefined;
  let live = liveStatusObserved(inputs.observed, applied);
  if (!live) {
    const updates = await listUpdatesOrMissing(session, inputs.incidentId);
    live = liveStatusOf(updates, applied);
  }
  if (reopenRefused(live.status, inputs.status, inputs.reopen)) {
    throw new Error(reopenMessage(inputs.incidentId, inputs.status, live));
  }
  const { observed, ...declared } = inputs;
  const seenUntil = observed?.kind === "read" ? (observed.newestAt ?? "") : (olds?.appliedAt ?? "");
  // An open status is sent only after a PUT without one has shown the live status: the
  // updates may be older than the truth (a PUT that only sets the field posts none), and
  // sending it blindly could reopen an incident resolved that way. RESOLVED reopens nothing.
  const first = statusToSend(inputs.status, live) === "RESOLVED" ? "RESOLVED" : undefined;
  let result = await put(session, inputs, first, seenUntil);
  const answered = result.live.status;
  if (answered !== inputs.status) {
    const fromAnswer: LiveStatus = { status: answered, source: "applied" };
    if (reopenRefused(answered, inputs.status, inputs.reopen)) {
      throw new Error(reopenMessage(inputs.incidentId, inputs.status, fromAnswer));
    }
    result = await put(session, inputs, inputs.status, seenUntil);
  }
  return { ...declared, ...result };
}

async function put(
  session: ProviderSession,
  declaration: IncidentDeclaration,
  status: IncidentStatus | undefined,
  seenUntil: string,
  whenMissing: (incidentId: string, session: ProviderSession) => string = missingMessage,
): Promise<Pick<IncidentState, "appliedAt" | "live" | "appliedUpdates">> {
  const api = client(session);
  const accountId = session.settings?.accountId ?? "";
  try {
    const incident = await api.incidents.update(
      declaration.incidentId,
      requestOf(declaration, { accountId, status }),
    );
    const appliedAt = incident.updated_at ?? new Date().toISOString();
    // A status the service added since is not one the rules can compare: the declared one
    // that was sent (or kept) stands for it, and the next read shows the value as it is.
    const answered = knownStatus(incident.lastUpdateStatus) ?? status ?? declaration.status;
    return {
      appliedAt,
      live: { status: answered, at: appliedAt, source: "applied" },
      appliedUpdates: updatesAfter(incident.incidentUpdates, seenUntil)
        .slice(0, APPLIED_UPDATES_LIMIT)
        .map(updateForState),
    };
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new Error(whenMissing(declaration.incidentId, session));
    throw inPulumiTerms(error, declaration.incidentId, session);
  }
}

// Refresh keeps failing on a missing incident rather than dropping the resource: a wrong
// accountId would otherwise empty the state of every incident in one refresh.
async function listUpdatesOrMissing(session: ProviderSession, incidentId: string) {
  try {
    return await client(session).incidents.listUpdates(incidentId);
  } catch (error) {
    throw inPulumiTerms(error, incidentId, session);
  }
}

/**
 * An API failure as a Pulumi user reads it: a 404 says the incident does not exist, and the
 * advice names the stack config (`incident-sync:apiKey`), not the CLI's flags.
 */
function inPulumiTerms(error: unknown, incidentId: string, session: ProviderSession): unknown {
  if (error instanceof NotFoundError) return new Error(missingMessage(incidentId, session));
  if (error instanceof ApiError) return new Error(apiErrorMessage(error, runSettingsContext()));
  return error;
}

function missingMessage(incidentId: string, session: ProviderSession): string {
  const account = session?.settings?.accountId;
  return `Incident "${incidentId}" does not exist${account ? ` in account "${account}"` : ""}. The API cannot create incidents: create it on the status page first, or fix the id in its definition.`;
}

/** A delete cannot resolve what is not there: say how to let go of it, or what to fix. */
function missingOnRemoveMessage(incidentId: string, session: ProviderSession): string {
  const account = session?.settings?.accountId;
  return `Incident "${incidentId}" does not exist${account ? ` in account "${account}"` : ""}, so its onRemove: resolve cannot resolve it. If the incident is gone for good, remove the resource from the state with \`pulumi state delete <urn>\` (\`pulumi stack --show-urns\` lists them); if the account or key is wrong, fix the stack config and run again.`;
}

function known(live: LiveStatus, fallback: IncidentStatus, at: string): KnownLiveStatus {
  return live.source === "update" && live.update
    ? {
        status: live.status ?? fallback,
        at: live.update.publicIncidentUpdateDate ?? live.update.created_at ?? at,
        source: "update",
      }
    : { status: live.status ?? fallback, at, source: "applied" };
}

/** State written by incident-sync 0.1 also held `createdAt`; it is dropped when next written. */
function withoutLegacy(props: IncidentState): IncidentState {
  const { createdAt: _createdAt, ...rest } = props as IncidentState & { createdAt?: unknown };
  return rest;
}

// One client per plugin process, shared by every resource: one rate limit and one
// concurrency cap, and no per-resource setup.
export function client(session: ProviderSession): MonitoringClient {
  if (session.api) return session.api;
  if (!session.settings || !session.apiKey) {
    throw new Error(
      `The incident provider has no connection: set ${configKey("baseUrl")}, ${configKey("accountId")} and the secret ${configKey(API_KEY_SETTING)} in the stack config.`,
    );
  }
  session.api = createClient(clientOptionsOf(session.settings, session.apiKey));
  return session.api;
}
