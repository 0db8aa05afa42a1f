import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseStackName } from "./stack-name";

/*
 * A state backend as the stack rules need it: whether it is self-managed (one organization,
 * `organization`), how a message names it, and a `file://` backend's stacks read from disk, for
 * the commands that run no engine (`validate`, `plan`). Every other backend is listed through
 * the Pulumi CLI, by the commands that run it.
 */

/**
 * The one organization of a self-managed backend (`file://`, `s3://`, `gs://`, `azblob://`,
 * `postgres://`): every stack there is `organization/<project>/<stack>`.
 */
export const SELF_MANAGED_ORGANIZATION = "organization";

/** Whether a backend is self-managed: anything but a Pulumi Cloud service's `http(s)://` URL. */
export function isSelfManagedBackend(backendUrl: string): boolean {
  return !/^https?:\/\//i.test(backendUrl);
}

/**
 * Why `name` can be no stack of a self-managed backend (`where` names it), in our words; undefined
 * when it can be. Organizations are Pulumi Cloud's: such a backend has only `organization`.
 */
export function selfManagedNameProblem(name: string, where: string): string | undefined {
  const { organization, stack } = parseStackName(name);
  if (organization === undefined || organization === SELF_MANAGED_ORGANIZATION) return undefined;
  return `"${name}" names the organization ${organization}, but ${where} is a self-managed backend, which keeps every stack in one organization, "${SELF_MANAGED_ORGANIZATION}": write "${stack}" (or "${SELF_MANAGED_ORGANIZATION}/${stack}"). Organizations such as ${organization} are Pulumi Cloud's.`;
}

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
export function stacksDir(backendUrl: string, project: string): string | undefined {
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
