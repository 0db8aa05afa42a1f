import { relative } from "node:path";
import type { LoadedDefinition } from "../definitions";
import type { RunningEmulator } from "../emulator";

/**
 * Adds to the emulator's sandbox the services the definitions name and the incidents with an
 * `id` it lacks, so `up --emulator` adopts them; returns a note for each incident added.
 */
export async function seedSandbox(
  emulator: RunningEmulator,
  definitions: readonly LoadedDefinition[],
  projectDir: string,
): Promise<string[]> {
  const { accountId, apiKey } = emulator.demo;
  const services = new Map<string, string>();
  for (const { definition } of definitions) {
    for (const service of definition.services) {
      if (service.name !== undefined) services.set(service.id, service.name);
    }
  }
  const unknown: LoadedDefinition[] = [];
  for (const loaded of definitions) {
    const id = incidentIdOf(loaded);
    if (id !== undefined && !(await exists(emulator, id))) unknown.push(loaded);
  }
  if (services.size === 0 && unknown.length === 0) return [];
  emulator.emulator.control.loadSeed({
    accounts: [
      {
        id: accountId,
        apiKeys: [apiKey],
        services: [...services].map(([id, name]) => ({ id, name })),
        incidents: unknown.map(({ definition }) => ({
          id: definition.id ?? "",
          name: definition.name,
          severity: definition.severity,
          lastUpdateStatus: definition.status,
          services: definition.services.map((service) => service.id),
        })),
      },
    ],
  });
  return unknown.map(
    (loaded) =>
      `Note: incident ${loaded.definition.id} (${relative(projectDir, loaded.file) || loaded.file}:${loaded.at.line}) is not in the emulator, so it was added to the emulator's sandbox as its definition declares it, for up to adopt. On the real service an incident with an id must already exist.`,
  );
}

/** The incident id a definition names, if it names one. */
function incidentIdOf(loaded: LoadedDefinition): string | undefined {
  return loaded.definition.id;
}

/** Whether the emulator's demo account has the incident: its updates are there to list. */
async function exists(emulator: RunningEmulator, id: string): Promise<boolean> {
  const response = await emulator.emulator.app.request(
    `/v1/status-pages/incidents/${encodeURIComponent(id)}/incident-updates`,
    {
      headers: {
        authorization: `Bearer ${emulator.demo.apiKey}`,
        "x-service-account": emulator.demo.accountId,
      },
    },
  );
  await response.body?.cancel();
  return response.status !== 404;
}
