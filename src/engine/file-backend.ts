import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { SELF_MANAGED_ORGANIZATION } from "../definitions/stack-name";
import { INCIDENT_TYPE } from "../incident/resource-type";

/*
 * A backend as a message names it, and a self-managed `file://` backend read from disk, for
 * the commands that run no engine (`validate`, `plan`): its stacks of a project, and the
 * incident ids a stack's state holds. Every other backend is read through the Pulumi CLI, by
 * the commands that run it.
 */

/** Where the state is, for a message: a file backend's folder, else the URL without credentials or query. */
export function describeBackend(backendUrl: string): string {
  if (backendUrl.startsWith("file://")) return fileURLToPath(backendUrl);
  try {
    const url = new URL(backendUrl);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return "the backend";
  }
}

/** Where a project's stacks are in a `file://` backend; undefined for any other backend. */
function stacksDir(backendUrl: string, project: string): string | undefined {
  if (!backendUrl.startsWith("file://")) return undefined;
  try {
    return join(fileURLToPath(backendUrl), ".pulumi", "stacks", project);
  } catch {
    return undefined;
  }
}

/** A stack's state file (`prod.json`, or `prod.json.gz` when Pulumi compresses it). */
const STATE_FILE = /^(.+)\.json(\.gz)?$/;

/** The project's stacks in a `file://` backend, by full name; none for another backend. */
export function fileBackendStacks(backendUrl: string, project: string): string[] {
  const dir = stacksDir(backendUrl, project);
  if (dir === undefined) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stacks = names.flatMap((name) => STATE_FILE.exec(name)?.[1] ?? []);
  return [...new Set(stacks)]
    .sort()
    .map((stack) => `${SELF_MANAGED_ORGANIZATION}/${project}/${stack}`);
}

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
