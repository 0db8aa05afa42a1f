import { resolve } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError } from "../src/api";
import {
  checkInputs,
  claimedRecord,
  decideDiff,
  decideRemoval,
  type IncidentInputs,
  type IncidentRecord,
  missingMessage,
  missingOnRemoveMessage,
  type Observation,
  observationFor,
  observe,
  putResolved,
  refreshedRecord,
  refreshRead,
  resolvingUpdate,
  servicesNamedFromCatalog,
  unnamedServices,
} from "../src/incident";
import { API_KEY_SETTING, configKey, readStackSettings, SETTINGS } from "../src/settings";
import { applyIncident, findOpened, put } from "./apply-incident";
import type { IncidentProvider } from "./incident-state";
import { projectRoot } from "./project-root";
import {
  client,
  createRunSession,
  exists,
  inPulumiTerms,
  inRun,
  listUpdates,
  type ProviderSession,
  type RunSession,
  readIncident,
  runOf,
} from "./provider-session";

/*
 * Each Pulumi call mapped to `src/incident`'s decisions, carried out by `apply-incident.ts`.
 * Providers stored by earlier releases call these functions with a session of their own.
 */

export type { IncidentState } from "./incident-state";
export type { IncidentInputs, IncidentProvider, ProviderSession, RunSession };
export { client, createRunSession };

/**
 * A provider with a session of its own: what the text stored in every incident's state
 * (`PROVIDER_SOURCE` in `incident.ts`) hands the dynamic provider plugin, which calls it once
 * per distinct stored text in a plugin process, and `configure` once on what it returns.
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

/**
 * A refusal (a reopen, a posted entry removed) is a change here, not an error: the engine
 * stops the whole run on a diff error, while the update step refuses that incident alone.
 */
export async function diff(
  session: ProviderSession,
  olds: IncidentRecord,
  news: IncidentInputs,
): Promise<pulumi.dynamic.DiffResult> {
  if (news.claimOnly) return { changes: false };
  const source = observationFor(olds, news);
  const observation =
    "read" in source ? await observationRead(session, source.read, news) : source.observation;
  const decision = decideDiff(olds, news, observation, session.settings?.enforce ?? "observed");
  return {
    changes: decision.changes,
    replaces: decision.replace ? ["incidentId"] : [],
    // Two resources never manage one incident: the old one lets go before the new one adopts.
    deleteBeforeReplace: decision.replace,
  };
}

/** Observation, not desired state: a read that fails leaves the diff to what git changed. */
async function observationRead(
  session: ProviderSession,
  incidentId: string,
  declared: IncidentInputs,
): Promise<Observation | undefined> {
  try {
    const incident = await client(session).incidents.get(incidentId);
    return observe(incident.incidentUpdates, incident, declared);
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
): Promise<pulumi.dynamic.CreateResult<IncidentRecord>> {
  if (inputs.claimOnly) {
    // The program's read of this run shows it exists; else one read of its own says.
    const seen = inputs.observed?.kind === "read";
    if (inputs.incidentId && !seen && !(await exists(session, inputs.incidentId))) {
      throw new Error(missingMessage(inputs.incidentId, session.settings?.accountId));
    }
    return {
      id: inputs.incidentId ?? `new:${inputs.resource ?? ""}`,
      outs: claimedRecord(inputs, new Date()),
    };
  }
  const state = await applyIncident(session, inputs, undefined);
  return { id: state.incidentId, outs: state };
}

export async function update(
  session: ProviderSession,
  olds: IncidentRecord,
  news: IncidentInputs,
): Promise<pulumi.dynamic.UpdateResult<IncidentRecord>> {
  return { outs: await applyIncident(session, news, olds) };
}

/** `pulumi refresh`: the live status from the incident's updates, by the one rule. */
export async function read(
  session: ProviderSession,
  id: string,
  props: IncidentRecord | undefined,
): Promise<pulumi.dynamic.ReadResult<IncidentRecord>> {
  if (!props) return { id };
  const what = refreshRead(props, id);
  if (what.read === "nothing") return { id, props };
  const updates =
    what.read === "updates"
      ? await listUpdates(session, what.incidentId)
      : (await readIncident(session, what.incidentId)).incidentUpdates;
  return { id, props: refreshedRecord(props, what.incidentId, updates, new Date()) };
}

/** What `remove` did and why, for the engine's log and for tests. */
export type RemoveOutcome = "released" | "released-redeclared" | "resolved";

/** Deletes a resource as `decideRemoval` says: release, or resolve by PUT or by a last update. */
export async function remove(
  session: ProviderSession,
  props: IncidentRecord,
): Promise<RemoveOutcome> {
  const removal = decideRemoval(props, inRun(session));
  if (removal.kind === "release") {
    // The plugin has no channel to the engine's log but its stderr, shown with the deletion.
    if (removal.notice) process.stderr.write(`incident-sync: ${removal.notice}\n`);
    return removal.redeclared ? "released-redeclared" : "released";
  }
  if (removal.kind === "find-opened") {
    const opened = await findOpened(
      session,
      { ...props, updates: props.updates ?? [] },
      props.intentAt,
    );
    return opened === undefined ? "released" : resolveWithUpdate(session, opened);
  }
  const named = removal.via === "put" ? await withCatalogNames(session, props) : props;
  if (removal.unlessMissing && !(await exists(session, props.incidentId))) return "released";
  if (removal.via === "update") return resolveWithUpdate(session, props.incidentId);
  const answer = await put(session, named, "RESOLVED", missingOnRemoveMessage, false);
  return putResolved(answer) ? "resolved" : resolveWithUpdate(session, props.incidentId);
}

/** Posts the last update of a removed incident with `updates`, unless it is resolved already. */
async function resolveWithUpdate(
  session: ProviderSession,
  incidentId: string,
): Promise<RemoveOutcome> {
  const last = resolvingUpdate((await readIncident(session, incidentId)).incidentUpdates);
  if (last === undefined) return "resolved";
  await client(session)
    .incidents.postUpdate(incidentId, last)
    .catch(async (error: unknown) => {
      throw await inPulumiTerms(error, incidentId, session);
    });
  return "resolved";
}

/**
 * State written before service names were required (0.1, 0.2) may hold a service without one,
 * and a deleted definition cannot give it: the services catalog of the definitions directory
 * (the plugin runs in the project directory) names it.
 */
async function withCatalogNames(
  session: ProviderSession,
  props: IncidentRecord,
): Promise<IncidentRecord> {
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
