import path from "node:path";
import { bareStackName } from "../definitions/stack-name";
import { exportProjectStack } from "../engine";
import { type StackRecords, stackRecordsOf } from "../reports";
import type { CommandIo } from "./io";
import { projectStacks } from "./project-stacks";
import { fileBackendResources } from "./stack-state";

/** Where a stack's state is: the project (its `Pulumi.yaml`) and its backend. */
export interface StackStateSource {
  /** The stack as Pulumi names it (`prod`, `acme/prod`). */
  stack: string;
  /** The project's directory and name; unset when no `Pulumi.yaml` was found. */
  project: { dir: string; name: string } | undefined;
  /** `--state`, `PULUMI_BACKEND_URL` or `backend.url` of `Pulumi.yaml`. */
  backendUrl: string | undefined;
  /** For a passphrase backend the engine opens. */
  passphrase?: string | undefined;
  /** The command's deadline (epoch ms): a state not read by then is not read. */
  deadline?: number | undefined;
}

/**
 * Where a command's `--stack` keeps its state: the project above the definitions, and
 * `--state <dir>`, else `PULUMI_BACKEND_URL`, else `backend.url` of `Pulumi.yaml`.
 */
export function stackStateSource(
  stack: string,
  state: string | undefined,
  definitionsDir: string,
  io: Pick<CommandIo, "cwd" | "env">,
  deadline?: Date | number,
): StackStateSource {
  const found = projectStacks(definitionsDir, io.env, stack);
  const project = found.project;
  return {
    stack,
    project: project?.name === undefined ? undefined : { dir: project.dir, name: project.name },
    backendUrl: state ? `file://${path.resolve(io.cwd, state)}` : found.backendUrl,
    passphrase: io.env.PULUMI_CONFIG_PASSPHRASE,
    deadline: deadline === undefined ? undefined : new Date(deadline).getTime(),
  };
}

/**
 * What a stack's state says of its incidents, or why it could not be read; `another` when it
 * is another project's or stack's, refused.
 */
export type StackRead =
  | ({ read: true } & StackRecords)
  | { read: false; why: string; another?: true };

/**
 * Reads a stack's state without writing it or taking its lock: a `file://` backend's file
 * directly, any other backend through the engine `up` runs (`pulumi stack export`), both
 * through the one reader of its resources (`stackRecordsOf`).
 */
export async function readStackRecords(source: StackStateSource): Promise<StackRead> {
  const { project, backendUrl, stack } = source;
  if (project === undefined) {
    return { read: false, why: "no Pulumi.yaml was found above the definitions directory" };
  }
  if (backendUrl === undefined) {
    return {
      read: false,
      why: "no backend is named: pass --state <dir>, or set PULUMI_BACKEND_URL (or backend.url in Pulumi.yaml)",
    };
  }
  const reading = backendUrl.startsWith("file://")
    ? fileRecords(backendUrl, project.name, stack)
    : exportedStackRecords({ ...source, project, backendUrl });
  return source.deadline === undefined ? reading : byDeadline(reading, source.deadline);
}

/** The read, or, when `deadline` passes first, why it was not read. */
async function byDeadline(reading: Promise<StackRead>, deadline: number): Promise<StackRead> {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<StackRead>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          read: false,
          why: `it was not read by the deadline, ${new Date(deadline).toISOString()}`,
        }),
      Math.max(0, deadline - Date.now()),
    );
    timer.unref();
  });
  try {
    return await Promise.race([reading, passed]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The same records asked of the engine (`pulumi stack export`), as any backend but a
 * `file://` one is read; a `file://` backend's gives what its file gives.
 */
export function exportedStackRecords(
  source: StackStateSource & { project: { dir: string }; backendUrl: string },
): Promise<StackRead> {
  return recordsOf(() => engineResources(source, source.project.dir, source.backendUrl));
}

async function recordsOf(resources: () => unknown[] | Promise<unknown[]>): Promise<StackRead> {
  try {
    return { read: true, ...stackRecordsOf(await resources(), refuse) };
  } catch (error) {
    return { read: false, why: (error as Error).message };
  }
}

async function fileRecords(backendUrl: string, project: string, stack: string): Promise<StackRead> {
  const read = fileBackendResources(backendUrl, project, bareStackName(stack));
  if ("why" in read) {
    return { read: false, why: read.why, ...(read.another ? { another: true as const } : {}) };
  }
  return recordsOf(() => read.resources);
}

/**
 * `pulumi stack export` of an existing stack: the engine creates nothing, writes no state and
 * leaves the project's selected stack as it was.
 */
async function engineResources(
  source: StackStateSource,
  projectDir: string,
  backendUrl: string,
): Promise<unknown[]> {
  const exported = await exportProjectStack({
    projectDir,
    stackName: source.stack,
    backendUrl,
    create: false,
    ...(source.passphrase === undefined ? {} : { passphrase: source.passphrase }),
    // The export is stopped at the deadline, so no engine outlives the command.
    ...(source.deadline === undefined
      ? {}
      : { signal: AbortSignal.timeout(Math.max(0, source.deadline - Date.now())), graceMs: 0 }),
    log: () => {},
  });
  return exported.deployment.resources ?? [];
}

function refuse(urn: string | undefined, why: string): never {
  throw new Error(`the state of ${urn ?? "an Incident"} is not one incident-sync wrote (${why})`);
}
