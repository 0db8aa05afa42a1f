import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { stacksDir } from "../definitions/backend";
import { kindOf } from "../definitions/read-regular-file";
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

/** Why a stack's state was not read; `another` when it is another project's or stack's. */
export interface StateRefusal {
  readonly why: string;
  readonly another?: true;
}

/**
 * The resources of a stack's state in a `file://` backend, as `pulumi stack export` lists
 * them (an empty stack has none), or why they cannot be read: a state that is no regular file,
 * too large before or after decompression, or another project's or stack's (`another`).
 * Read-only: no lock is taken.
 */
export function fileBackendResources(
  backendUrl: string,
  project: string,
  stack: string,
): { resources: unknown[] } | StateRefusal {
  const dir = stacksDir(backendUrl, project);
  if (dir === undefined) return { why: `${backendUrl} is not a file:// backend` };
  const read = readState(join(dir, `${stack}.json`));
  if ("missing" in read) {
    return {
      why: `stack ${stack} of project ${project} has no state in ${fileURLToPath(backendUrl)} (\`incident-sync up --stack ${stack}\` makes it)`,
    };
  }
  if ("why" in read) return read;
  let state: { checkpoint?: { stack?: unknown; latest?: { resources?: unknown } } };
  try {
    state = JSON.parse(read.text) as typeof state;
  } catch {
    return { why: `the state file of stack ${stack} in ${dir} is not a Pulumi checkpoint` };
  }
  const resources = state.checkpoint?.latest?.resources ?? [];
  if (!Array.isArray(resources)) {
    return { why: `the state file of stack ${stack} in ${dir} is not a Pulumi checkpoint` };
  }
  const owner = anotherOwner(state.checkpoint?.stack, resources, { project, stack });
  if (owner !== undefined) {
    return {
      another: true,
      why: `${read.file} holds the state of stack ${owner.stack} of project ${owner.project}, not of stack ${stack} of project ${project} asked for: it is not read, as its incidents are not this stack's. Give --state where this project's stack keeps its state, or run \`incident-sync up --stack ${stack}\` here to make it`,
    };
  }
  return { resources };
}

/** The project and stack a state says it is of, where either is not the one asked for. */
function anotherOwner(
  checkpointStack: unknown,
  resources: readonly unknown[],
  asked: { project: string; stack: string },
): { project: string; stack: string } | undefined {
  const differs = (owner: { project?: string; stack?: string }) =>
    (owner.project !== undefined && owner.project !== asked.project) ||
    (owner.stack !== undefined && owner.stack !== asked.stack);
  const said = (owner: { project?: string; stack?: string }) => ({
    project: owner.project ?? asked.project,
    stack: owner.stack ?? asked.stack,
  });
  // `organization/<project>/<stack>` in a project-scoped backend, `<stack>` in an old one; the
  // project is taken from the resources' URNs, which every state holds.
  if (typeof checkpointStack === "string" && checkpointStack !== "") {
    const owner = { stack: checkpointStack.split("/").at(-1) as string };
    if (differs(owner)) return said(owner);
  }
  for (const resource of resources) {
    const urn = (resource as { urn?: unknown } | null)?.urn;
    const match = typeof urn === "string" ? /^urn:pulumi:([^:]*)::([^:]*)::/.exec(urn) : null;
    if (match === null) continue;
    const owner = { stack: match[1] as string, project: match[2] as string };
    if (differs(owner)) return said(owner);
  }
  return undefined;
}

/**
 * Largest state read, compressed or as read after decompression: far above a stack of a few
 * thousand incidents, and small enough that parsing it takes a moment, not the machine's
 * memory (a gzip bomb of 9 MB would be gigabytes).
 */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

/** Opened without following a link or waiting on a pipe: a FIFO must not hang the reader. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A state file's text, compressed (`.json.gz`) or not; `missing` when there is neither. */
function readState(
  file: string,
): { text: string; file: string } | { missing: true } | { why: string } {
  const plain = readBounded(file);
  if (!("missing" in plain))
    return "why" in plain ? plain : { text: plain.bytes.toString("utf8"), file };
  const packed = `${file}.gz`;
  const compressed = readBounded(packed);
  if ("missing" in compressed || "why" in compressed) return compressed;
  try {
    const bytes = gunzipSync(compressed.bytes, { maxOutputLength: MAX_STATE_BYTES });
    return { text: bytes.toString("utf8"), file: packed };
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
    return {
      why: tooLarge
        ? `${packed} decompresses past ${mib(MAX_STATE_BYTES)}, more than any stack's state: it is not read`
        : `${packed} is not gzip (${(error as Error).message})`,
    };
  }
}

/** A regular file's bytes, at most `MAX_STATE_BYTES`, or why not; `missing` when absent. */
function readBounded(file: string): { bytes: Buffer } | { missing: true } | { why: string } {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { missing: true };
    if (code === "ELOOP")
      return { why: `${file} is a symbolic link, not a state file: it is not read` };
    return { why: `${file} cannot be read (${(error as Error).message})` };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      return { why: `${file} is ${kindOf(info)}, not a regular file: it is not read` };
    }
    if (info.size > MAX_STATE_BYTES) {
      return {
        why: `${file} is ${mib(info.size)}, more than the ${mib(MAX_STATE_BYTES)} a stack's state may be: it is not read`,
      };
    }
    // Read to one byte past the size measured: a file growing meanwhile stays bounded.
    const bytes = Buffer.alloc(info.size + 1);
    let length = 0;
    while (length < bytes.length) {
      const count = readSync(fd, bytes, length, bytes.length - length, null);
      if (count === 0) break;
      length += count;
    }
    if (length > info.size) return { why: `${file} grew while it was read: it is not read` };
    return { bytes: bytes.subarray(0, length) };
  } catch (error) {
    return { why: `${file} cannot be read (${(error as Error).message})` };
  } finally {
    closeSync(fd);
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
