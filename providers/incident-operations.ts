import { resolve } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type IncidentStatus, NotFoundError } from "../src/api";
import {
  checkDeclaration,
  decideApply,
  entryRequest,
  incidentLabel,
  type LiveStatus,
  liveStatusOf,
  type Observation,
  observe,
  reopenRefused,
  reopenWithoutFlagMessage,
  servicesNamedFromCatalog,
  unnamedServices,
  unnamedServicesMessage,
} from "../src/incident";
import { API_KEY_SETTING, configKey, readStackSettings, SETTINGS } from "../src/settings";
import { applyIncident, findOpened, listUpdates, put } from "./apply-incident";
import type {
  IncidentInputs,
  IncidentProvider,
  IncidentState,
  KnownLiveStatus,
} from "./incident-state";
import { projectRoot } from "./project-root";
import {
  client,
  inPulumiTerms,
  missingMessage,
  missingOnRemoveMessage,
  type ProviderSession,
  readIncident,
  startRun,
  thisRun,
} from "./provider-session";

/*
 * The operations of the incident provider: each Pulumi call mapped to the decisions of
 * `src/incident` and carried out by `apply-incident.ts`. The provider stored in the state
 * (`incident.ts`) loads this module by package name in the engine's plugin process, never
 * serialized into the state, so it imports what it needs like any module.
 */

export type { IncidentInputs, IncidentProvider, IncidentState, KnownLiveStatus, ProviderSession };
export { client, startRun };

/** The message an incident with `updates` is resolved with when its definition is removed. */
export const RESOLVED_ON_REMOVE = "This incident is resolved.";

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
  const label = incidentLabel(declaration.incidentId, declaration.resource);
  if (declaration.incidentId) thisRun.declared.add(declaration.incidentId);
  const unnamed = unnamedServices(declaration.services);
  const failure = (property: string, reason: string) => ({ failures: [{ property, reason }] });
  if (unnamed.length > 0) {
    return failure("services", unnamedServicesMessage(label, unnamed));
  }
  const observed = news.observed as Observation | undefined;
  if (observed?.kind === "missing") {
    return failure("incidentId", missingMessage(label, session));
  }
  // Reopening a resolved incident notifies subscribers again: it has to be meant.
  if (reopenRefused(olds.status, declaration.status, declaration.reopen)) {
    return failure("status", `incident ${label}: ${reopenWithoutFlagMessage(declaration.status)}`);
  }
  const candidates = news.candidates as IncidentInputs["candidates"];
  return {
    inputs: {
      ...declaration,
      providerVersion: String(news.providerVersion ?? ""),
      ...(observed === undefined ? {} : { observed }),
      ...(candidates === undefined ? {} : { candidates }),
      ...(news.claimOnly === true ? { claimOnly: true as const } : {}),
    },
  };
}

/**
 * What the program observed in this run is among the inputs; a new incident's is picked from
 * its candidates by the id its state holds, and read here only when none of them is it. A
 * refusal (a reopen, a posted entry removed) is reported as a change, not an error: the engine
 * stops the whole run on a diff error, whereas the update step refuses it alone, so every other
 * incident is still applied.
 */
export async function diff(
  session: ProviderSession,
  olds: IncidentState,
  news: IncidentInputs,
): Promise<pulumi.dynamic.DiffResult> {
  // The claim run records new incidents only; one already in the state is left as it is.
  if (news.claimOnly) return { changes: false };
  const observation = await observationFor(session, olds, news);
  const decision = decideApply(olds, news, observation, session.settings?.enforce ?? "observed");
  const versionChanged = olds.providerVersion !== news.providerVersion;
  return {
    // A claimed incident is adopted by the first run that applies, whatever else it sees.
    changes: decision.apply || decision.replace || versionChanged || olds.claimed === true,
    replaces: decision.replace ? ["incidentId"] : [],
    // Two resources never manage one incident: the old one lets go before the new one adopts.
    deleteBeforeReplace: decision.replace,
  };
}

async function observationFor(
  session: ProviderSession,
  olds: IncidentState,
  news: IncidentInputs,
): Promise<Observation | undefined> {
  if (news.observed !== undefined || news.incidentId !== undefined) return news.observed;
  if (!olds.incidentId || olds.claimed) return undefined;
  const candidate = news.candidates?.[olds.incidentId];
  if (candidate !== undefined) return candidate;
  // Observation, not desired state: a read that fails leaves the diff to what git changed.
  try {
    const incident = await client(session).incidents.get(olds.incidentId);
    return observe(incident.incidentUpdates, incident, news);
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/**
 * Adopts the declared incident, or opens a new one. In the claim run it is only recorded: an
 * id that exists (a read shows it), or the intent to open a new incident and when, so a run
 * stopped midway finds what it opened.
 */
export async function create(
  session: ProviderSession,
  inputs: IncidentInputs,
): Promise<pulumi.dynamic.CreateResult<IncidentState>> {
  if (inputs.claimOnly) {
    if (inputs.incidentId && !(await exists(session, inputs.incidentId))) {
      throw new Error(missingMessage(inputs.incidentId, session));
    }
    const state = claimedState(inputs);
    return { id: inputs.incidentId ?? `new:${inputs.resource ?? ""}`, outs: state };
  }
  const state = await applyIncident(session, inputs, undefined);
  return { id: state.incidentId, outs: state };
}

function claimedState(inputs: IncidentInputs): IncidentState {
  const {
    observed: _observed,
    candidates: _candidates,
    claimOnly: _claimOnly,
    ...declared
  } = inputs;
  return {
    ...declared,
    incidentId: declared.incidentId ?? "",
    appliedAt: "",
    live: { status: declared.status, at: "", source: "applied" },
    appliedUpdates: [],
    claimed: true,
    ...(declared.incidentId === undefined ? { intentAt: new Date().toISOString() } : {}),
  };
}

export async function update(
  session: ProviderSession,
  olds: IncidentState,
  news: IncidentInputs,
): Promise<pulumi.dynamic.UpdateResult<IncidentState>> {
  return { outs: await applyIncident(session, news, olds) };
}

/** `pulumi refresh`: the live status from the incident's updates, by the one rule. */
export async function read(
  session: ProviderSession,
  id: string,
  props: IncidentState | undefined,
): Promise<pulumi.dynamic.ReadResult<IncidentState>> {
  if (!props) return { id };
  // A new incident claimed and never opened has nothing to read.
  if (props.claimed && !props.incidentId) return { id, props };
  const incidentId = props.incidentId || id;
  const updates =
    props.updates === undefined
      ? await listUpdates(session, incidentId)
      : (await readIncident(session, incidentId)).incidentUpdates;
  const live = liveStatusOf(updates, { status: props.status, at: props.appliedAt });
  const state: IncidentState = {
    ...withoutLegacy(props),
    incidentId,
    appliedUpdates: props.appliedUpdates ?? [],
    status: live.status ?? props.status,
    live: known(live, props.status, new Date().toISOString()),
  };
  return { id, props: state };
}

/** What `remove` did and why, for the engine's log and for tests. */
export type RemoveOutcome = "released" | "released-redeclared" | "resolved";

/**
 * `onRemove: resolve` resolves the incident (a PUT of RESOLVED, or with `updates` a last
 * update saying so); `release` lets go. A claimed incident is resolved too, as the run that
 * claimed it may have applied it before it was killed; one that does not exist was never
 * applied, and is let go. An incident that another resource of this run declares or took
 * (opening it found it) is released whatever `onRemove` says: the old resource of a rename
 * without `aliases` is deleted after the new one took the incident over, and resolving it
 * would tell customers an open incident is over.
 */
export async function remove(
  session: ProviderSession,
  props: IncidentState,
): Promise<RemoveOutcome> {
  const id = props.incidentId;
  if (id && (thisRun.declared.has(id) || thisRun.taken.has(id))) {
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
  if (!props.incidentId) {
    // A new incident claimed and never recorded as opened: a stopped run may have opened it.
    const opened =
      props.updates === undefined
        ? undefined
        : await findOpened(session, { ...props, updates: props.updates }, props.intentAt);
    if (opened === undefined) return "released";
    return resolveWithUpdate(session, { ...props, incidentId: opened });
  }
  const named = await withCatalogNames(session, props);
  if (props.claimed && !(await exists(session, props.incidentId))) return "released";
  if (props.updates !== undefined) return resolveWithUpdate(session, props);
  await put(session, named, "RESOLVED", props.appliedAt, missingOnRemoveMessage);
  return "resolved";
}

/** Posts the last update of a removed incident with `updates`, unless it is resolved already. */
async function resolveWithUpdate(
  session: ProviderSession,
  props: IncidentState,
): Promise<RemoveOutcome> {
  const incident = await readIncident(session, props.incidentId);
  if (liveStatusOf(incident.incidentUpdates).status === "RESOLVED") return "resolved";
  const last = { status: "RESOLVED" as IncidentStatus, message: RESOLVED_ON_REMOVE, notify: false };
  await client(session)
    .incidents.postUpdate(props.incidentId, entryRequest(last, { notify: false }))
    .catch(async (error: unknown) => {
      throw await inPulumiTerms(error, props.incidentId, session);
    });
  return "resolved";
}

async function exists(session: ProviderSession, incidentId: string): Promise<boolean> {
  try {
    await client(session).incidents.listUpdates(incidentId);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw await inPulumiTerms(error, incidentId, session);
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
