import { relative } from "node:path";
import {
  type DefinitionProblem,
  type LoadedDefinition,
  readServiceNames,
  unknownServices,
} from "../definitions";
import type { RunningEmulator } from "../emulator";

/** What the sandbox took in, and what it refused. */
export interface SandboxSeeding {
  /** A note for each incident added. */
  readonly notes: string[];
  /** A service a definition lists that neither the emulator nor the catalog has: nothing added. */
  readonly problems: DefinitionProblem[];
}

/** The sandbox's list of services, as a problem names it. */
export const SANDBOX_SERVICES =
  "the emulator's sandbox (the demo's services and those of services.yaml)";

/**
 * Gives the emulator's sandbox the services of the catalog (`services.yaml` in `dir`, as
 * `import` writes it from the service) and the incidents with an `id` it lacks, with their
 * dated updates as posted, so `up --emulator` adopts them. A service a definition lists that neither has is a typo until
 * shown otherwise: refused with a did-you-mean, as the service would refuse it, and nothing is
 * added.
 */
export async function seedSandbox(
  emulator: RunningEmulator,
  definitions: readonly LoadedDefinition[],
  projectDir: string,
  dir: string,
): Promise<SandboxSeeding> {
  const { accountId, apiKey } = emulator.demo;
  const catalog = await readServiceNames(dir);
  const existing = await serviceIds(emulator);
  const known = new Set([...existing, ...catalog.keys()]);
  const problems = unknownServices(
    definitions,
    known,
    SANDBOX_SERVICES,
    (id) => `If your status page has ${id}, add it to services.yaml.`,
  );
  if (problems.length > 0) return { notes: [], problems };
  const services = [...catalog].filter(([id]) => !existing.has(id));
  const unknown: LoadedDefinition[] = [];
  for (const loaded of definitions) {
    const id = loaded.definition.id;
    if (id !== undefined && !(await answers(emulator, incidentUpdatesPath(id)))) {
      unknown.push(loaded);
    }
  }
  if (services.length === 0 && unknown.length === 0) return { notes: [], problems: [] };
  // A seed names every service its incidents list, the demo's own too.
  const seeded = new Map(services);
  for (const { definition } of unknown) {
    for (const service of definition.services) {
      if (!seeded.has(service.id)) seeded.set(service.id, service.name ?? service.id);
    }
  }
  emulator.emulator.control.loadSeed({
    accounts: [
      {
        id: accountId,
        apiKeys: [apiKey],
        services: [...seeded].map(([id, name]) => ({ id, name })),
        incidents: unknown.map(({ definition }) => {
          const history = datedEntries(definition);
          return {
            id: definition.id ?? "",
            name: definition.name,
            severity: definition.severity,
            lastUpdateStatus: history.at(-1)?.status ?? definition.status,
            services: definition.services.map((service) => service.id),
            updates: history.map((entry) => ({
              description: entry.message,
              status: entry.status,
              created_at: entry.at,
            })),
          };
        }),
      },
    ],
  });
  const notes = unknown.map((loaded) => {
    const dated = datedEntries(loaded.definition).length;
    const history =
      dated === 0
        ? ""
        : ` Its ${dated === 1 ? "dated update was" : `${dated} dated updates were`} added as posted, as on the status page it was imported from.`;
    return `Note: incident ${loaded.definition.id} (${relative(projectDir, loaded.file) || loaded.file}:${loaded.at.line}) is not in the emulator, so it was added to the emulator's sandbox as its definition declares it, for up to adopt. On the real service an incident with an id must already exist.${history}`;
  });
  return { notes, problems: [] };
}

/**
 * The entries of an incident that exists that tell of the past (`at`, as `import` writes what
 * customers have read): on the service they are posted already, so the sandbox has them too.
 */
function datedEntries(definition: LoadedDefinition["definition"]) {
  return (definition.updates ?? []).flatMap((entry) =>
    entry.at === undefined ? [] : [{ ...entry, at: entry.at }],
  );
}

function incidentUpdatesPath(id: string): string {
  return `/v1/status-pages/incidents/${encodeURIComponent(id)}/incident-updates`;
}

function request(emulator: RunningEmulator, path: string): Promise<Response> {
  return Promise.resolve(
    emulator.emulator.app.request(path, {
      headers: {
        authorization: `Bearer ${emulator.demo.apiKey}`,
        "x-service-account": emulator.demo.accountId,
      },
    }),
  );
}

/** Whether the emulator's demo account has what `path` reads (its answer is not a 404). */
async function answers(emulator: RunningEmulator, path: string): Promise<boolean> {
  const response = await request(emulator, path);
  await response.body?.cancel();
  return response.status !== 404;
}

/** The ids of the demo account's services, through the services list as a client reads it. */
async function serviceIds(emulator: RunningEmulator): Promise<Set<string>> {
  const ids = new Set<string>();
  let nextId: string | null = null;
  do {
    const query: string = nextId === null ? "" : `&nextId=${encodeURIComponent(nextId)}`;
    const response = await request(emulator, `/v1/status-pages/services?limit=100${query}`);
    if (!response.ok) {
      throw new Error(`the emulator's services list answered ${response.status}`);
    }
    const page = (await response.json()) as { entries: { id: string }[]; nextId: string | null };
    for (const entry of page.entries) ids.add(entry.id);
    nextId = page.nextId;
  } while (nextId !== null);
  return ids;
}
