import {
  ApiError,
  createClient,
  type IncidentResponse,
  type IncidentUpdate,
  type ListedIncident,
  type MonitoringClient,
  NotFoundError,
  type SkippedIncident,
} from "../src/api";
import { lacksOperationMessage, missingMessage } from "../src/incident";
import {
  API_KEY_SETTING,
  apiErrorMessage,
  clientOptionsOf,
  configKey,
  runSettingsContext,
  type StackSettings,
} from "../src/settings";

/**
 * What one run of the engine tells the provider across its resources: the incident ids the
 * program declares (`check` sees every one before the engine deletes those no longer
 * declared), those a create took, and the service's incidents, read once when one is opened.
 */
export interface RunSession {
  readonly declared: Set<string>;
  readonly taken: Set<string>;
  incidents?: Promise<ServiceIncidents> | undefined;
}

/** The service's incidents as listed: those read, and those the contract's schema refused. */
export interface ServiceIncidents {
  entries: ListedIncident[];
  skipped: SkippedIncident[];
}

export function createRunSession(): RunSession {
  return { declared: new Set(), taken: new Set() };
}

/** What one provider instance keeps in the plugin process: never serialized, never in state. */
export interface ProviderSession {
  /** The stack settings, from `configure`. */
  settings?: StackSettings;
  /** The API key, from the secret stack config in `configure`. */
  apiKey?: string;
  /** The client of this plugin process, made on first use after `configure`. */
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

/** Every incident the service lists, read once for the run; an odd entry is kept apart. */
export function listedIncidents(
  session: ProviderSession,
  fresh = false,
): Promise<ServiceIncidents> {
  const run = runOf(session);
  if (fresh) run.incidents = undefined;
  run.incidents ??= (async () => {
    const all: ServiceIncidents = { entries: [], skipped: [] };
    for await (const page of client(session).incidents.pages()) {
      all.entries.push(...page.entries);
      all.skipped.push(...page.skipped);
    }
    return all;
  })();
  const read = run.incidents;
  // A failed read is not kept: the next create reads again.
  read.catch(() => {
    if (run.incidents === read) run.incidents = undefined;
  });
  return read;
}

/** The incident with its updates, or a clear error naming it. */
export async function readIncident(
  session: ProviderSession,
  incidentId: string,
): Promise<IncidentResponse> {
  try {
    return await client(session).incidents.get(incidentId);
  } catch (error) {
    throw await inPulumiTerms(error, incidentId, session);
  }
}

/** The incident's updates, or a clear error naming it. */
export async function listUpdates(
  session: ProviderSession,
  incidentId: string,
): Promise<IncidentUpdate[]> {
  try {
    return await client(session).incidents.listUpdates(incidentId);
  } catch (error) {
    throw await inPulumiTerms(error, incidentId, session);
  }
}

/** Whether the incident exists: its updates read, or a 404. */
export async function exists(session: ProviderSession, incidentId: string): Promise<boolean> {
  try {
    await client(session).incidents.listUpdates(incidentId);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw await inPulumiTerms(error, incidentId, session);
  }
}

/**
 * An API failure as a Pulumi user reads it: a 404 says the incident does not exist (or, when
 * the spec's own read of it works, that the service lacks the operation), and the advice names
 * the stack config (`incident-sync:apiKey`), not the CLI's flags.
 */
export async function inPulumiTerms(
  error: unknown,
  incidentId: string,
  session: ProviderSession,
): Promise<unknown> {
  if (error instanceof NotFoundError || (error instanceof ApiError && error.status === 405)) {
    if (error.operation === "incidents.listUpdates" || error.operation === "incidents.update") {
      return new Error(missingMessage(incidentId, session.settings?.accountId));
    }
    const found = await client(session)
      .incidents.listUpdates(incidentId)
      .then(
        () => true,
        () => false,
      );
    return new Error(
      found
        ? lacksOperationMessage(error)
        : missingMessage(incidentId, session.settings?.accountId),
    );
  }
  if (error instanceof ApiError) return new Error(apiErrorMessage(error, runSettingsContext()));
  return error;
}

/** A 404 or 405 from an operation beyond the spec: the service does not have it. */
export function lacksOperation(error: unknown): Error | undefined {
  return error instanceof ApiError && (error.status === 404 || error.status === 405)
    ? new Error(lacksOperationMessage(error))
    : undefined;
}
