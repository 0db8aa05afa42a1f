import {
  ApiError,
  createClient,
  type IncidentResponse,
  type ListedIncident,
  type MonitoringClient,
  NotFoundError,
  type SkippedIncident,
} from "../src/api";
import {
  API_KEY_SETTING,
  apiErrorMessage,
  clientOptionsOf,
  configKey,
  runSettingsContext,
  type StackSettings,
} from "../src/settings";

/** What one provider instance keeps in the plugin process: never serialized, never in state. */
export interface ProviderSession {
  /** The stack settings, from `configure`. */
  settings?: StackSettings;
  /** The API key, from the secret stack config in `configure`. */
  apiKey?: string;
  /** The client of this plugin process, made on first use after `configure`. */
  api?: MonitoringClient;
  /** The service's incidents, read once per run when an incident is about to be opened. */
  incidents?: Promise<ServiceIncidents>;
}

/** The service's incidents as listed: those read, and those the contract's schema refused. */
export interface ServiceIncidents {
  entries: ListedIncident[];
  skipped: SkippedIncident[];
}

/**
 * What the engine's one plugin process knows of the run it serves, whichever stored provider
 * (of whichever release) calls it: the incident ids the program declares (`check` sees every
 * one before the engine deletes those no longer declared) and those taken by a create.
 */
export const thisRun = {
  declared: new Set<string>(),
  taken: new Set<string>(),
};

/** Forgets what this run saw: a new run of the engine, in tests that run the operations in process. */
export function startRun(): void {
  thisRun.declared.clear();
  thisRun.taken.clear();
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

/** Every incident the service lists, read once for the session; an odd entry is kept apart. */
export function listedIncidents(session: ProviderSession): Promise<ServiceIncidents> {
  session.incidents ??= (async () => {
    const all: ServiceIncidents = { entries: [], skipped: [] };
    for await (const page of client(session).incidents.pages()) {
      all.entries.push(...page.entries);
      all.skipped.push(...page.skipped);
    }
    return all;
  })();
  // A failed read is not kept: the next create reads again.
  session.incidents.catch(() => {
    session.incidents = undefined;
  });
  return session.incidents;
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
      return new Error(missingMessage(incidentId, session));
    }
    const exists = await client(session)
      .incidents.listUpdates(incidentId)
      .then(
        () => true,
        () => false,
      );
    return new Error(exists ? lacksOperationMessage(error) : missingMessage(incidentId, session));
  }
  if (error instanceof ApiError) return new Error(apiErrorMessage(error, runSettingsContext()));
  return error;
}

export function missingMessage(incidentId: string, session: ProviderSession): string {
  const account = session?.settings?.accountId;
  return `Incident "${incidentId}" does not exist${account ? ` in account "${account}"` : ""}. Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident.`;
}

/** A service with only the spec's excerpt: it cannot open incidents or post updates. */
export function lacksOperationMessage(error: ApiError): string {
  return `The service answered ${error.method} ${error.path} with ${error.status}: it does not offer the operations that open incidents and post updates (the public reference's, beyond the spec). Nothing was sent. Open the incident on the status page, put its id in the definition, and declare its status with "status:" instead of "updates:".`;
}

/** A delete cannot resolve what is not there: say how to let go of it, or what to fix. */
export function missingOnRemoveMessage(incidentId: string, session: ProviderSession): string {
  const account = session?.settings?.accountId;
  return `Incident "${incidentId}" does not exist${account ? ` in account "${account}"` : ""}, so its onRemove: resolve cannot resolve it. If the incident is gone for good, remove the resource from the state with \`pulumi state delete <urn>\` (\`pulumi stack --show-urns\` lists them); if the account or key is wrong, fix the stack config and run again.`;
}
