import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { stacksDir } from "../definitions/backend";
import { INCIDENT_TYPE } from "../incident/resource-type";

/*
 * A stack's state read from a `file://` backend without the engine: for `plan` (the ids its
 * first `up` gave the incidents it opened) and `drift --stack` (`stack-records.ts`, which
 * asks the Pulumi CLI for another backend's).
 */

/**
 * The incident id of each resource in a stack's state in a `file://` backend, by resource
 * name: how the stack knows an incident its first `up` opened. Empty when it cannot be read.
 */
export function fileBackendIncidentIds(
  backendUrl: string,
  project: string,
  stack: string,
): Map<string, string> {
  const ids = new Map<string, string>();
  const read = fileBackendResources(backendUrl, project, stack);
  if (!("resources" in read)) return ids;
  for (const resource of read.resources as {
    type?: unknown;
    urn?: unknown;
    outputs?: unknown;
  }[]) {
    if (resource.type !== INCIDENT_TYPE || typeof resource.urn !== "string") continue;
    const incidentId = (resource.outputs as { incidentId?: unknown } | undefined)?.incidentId;
    if (typeof incidentId !== "string" || incidentId === "") continue;
    ids.set(resource.urn.slice(resource.urn.lastIndexOf("::") + 2), incidentId);
  }
  return ids;
}

/**
 * The resources of a stack's state in a `file://` backend, as `pulumi stack export` lists
 * them (an empty stack has none), or why they cannot be read. Read-only: no lock is taken.
 */
export function fileBackendResources(
  backendUrl: string,
  project: string,
  stack: string,
): { resources: unknown[] } | { why: string } {
  const dir = stacksDir(backendUrl, project);
  if (dir === undefined) return { why: `${backendUrl} is not a file:// backend` };
  let text: string;
  try {
    text = readState(join(dir, `${stack}.json`));
  } catch {
    return {
      why: `stack ${stack} of project ${project} has no state in ${fileURLToPath(backendUrl)} (\`incident-sync up --stack ${stack}\` makes it)`,
    };
  }
  try {
    const state = JSON.parse(text) as { checkpoint?: { latest?: { resources?: unknown } } };
    const resources = state.checkpoint?.latest?.resources ?? [];
    if (Array.isArray(resources)) return { resources };
  } catch {
    // Said below, as for any state that is not Pulumi's.
  }
  return { why: `the state file of stack ${stack} in ${dir} is not a Pulumi checkpoint` };
}

/** A state file's text, compressed or not. */
function readState(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return gunzipSync(readFileSync(`${file}.gz`)).toString("utf8");
  }
}
