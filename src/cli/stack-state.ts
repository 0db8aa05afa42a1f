import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { stacksDir } from "../definitions/backend";
import { INCIDENT_TYPE } from "../incident/resource-type";

/*
 * A stack's state read from a `file://` backend, for `plan`, which runs no engine: the ids its
 * first `up` gave the incidents it opened. Another backend's state needs the Pulumi CLI.
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
  const dir = stacksDir(backendUrl, project);
  const ids = new Map<string, string>();
  if (dir === undefined) return ids;
  let resources: unknown;
  try {
    const state = JSON.parse(readState(join(dir, `${stack}.json`))) as {
      checkpoint?: { latest?: { resources?: unknown } };
    };
    resources = state.checkpoint?.latest?.resources;
  } catch {
    return ids;
  }
  if (!Array.isArray(resources)) return ids;
  for (const resource of resources as { type?: unknown; urn?: unknown; outputs?: unknown }[]) {
    if (resource.type !== INCIDENT_TYPE || typeof resource.urn !== "string") continue;
    const incidentId = (resource.outputs as { incidentId?: unknown } | undefined)?.incidentId;
    if (typeof incidentId !== "string" || incidentId === "") continue;
    ids.set(resource.urn.slice(resource.urn.lastIndexOf("::") + 2), incidentId);
  }
  return ids;
}

/** A state file's text, compressed or not. */
function readState(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return gunzipSync(readFileSync(`${file}.gz`)).toString("utf8");
  }
}
