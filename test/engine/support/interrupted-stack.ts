import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleId,
  scaleSeed,
  writeScaleDefinitions,
  writeScaleProject,
} from "../../../bench/support/scale-project.mjs";
import { type EngineLocation, openProjectStack, resolveEngine } from "../../../src/engine";
import { CLI, type CliRun, pipelineEnv, runCli, upArgs } from "../../cli/run-cli";
import { incidentRows } from "./emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./emulator-sandbox";
import { killRun, processesIn } from "./processes";

/**
 * A stack of `incidents` scale incidents driven by `incident-sync up` as a child process, the
 * way a pipeline runs it, for tests that interrupt runs: the default suite's one case of each
 * interruption (test/reliability/interruptions.test.ts) and the kill loop of `npm run reliability`.
 */
export interface InterruptedStack {
  readonly sandbox: EmulatorSandbox;
  readonly engine: EngineLocation;
  readonly project: string;
  readonly state: string;
  readonly passphrase: string;
  /** `incident-sync up`'s arguments for this stack. */
  args(): string[];
  /** The variables a pipeline gives it. */
  env(): NodeJS.ProcessEnv;
  /** Runs `incident-sync up` to its end. */
  up(env?: NodeJS.ProcessEnv): Promise<CliRun>;
  /** Starts `incident-sync up` in the background. */
  startUp(): ChildProcess;
  /** Rewrites every definition to `variant` (its name says which). */
  declare(variant: number, changed?: number): void;
  /** Whether any pulumi process of this project is running. */
  engineRunning(): boolean;
  /** Whether `pulumi up` itself is running (the stack is locked, steps are in flight). */
  upRunning(): boolean;
  /** Kills every process of a run (the tree below `run` and all in the project) and waits. */
  killRun(run: ChildProcess): Promise<void>;
  /** Every incident is named as `variant` says, once in the state, with nothing pending. */
  expectConverged(variant: number): Promise<void>;
  /** The stack's lock files. */
  locks(): string[];
  close(): Promise<void>;
}

export async function startInterruptedStack(
  name: string,
  incidents: number,
): Promise<InterruptedStack> {
  const engine = await resolveEngine();
  const sandbox = await startEmulatorSandbox(name, scaleSeed(incidents));
  const { root, emulator, db } = sandbox;
  const state = join(root, "state");
  mkdirSync(state);
  const project = writeScaleProject(join(root, "project"));
  const passphrase = `${name}-passphrase`;
  const target = { project, stack: "chaos", state, apiUrl: emulator.url, accountId: SCALE_ACCOUNT };
  const args = () => upArgs(target);
  const env = () => pipelineEnv(SCALE_API_KEY, passphrase);
  const commandLineMatches = (pattern: RegExp) =>
    processesIn(project).some((pid) => {
      try {
        return pattern.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
      } catch {
        return false;
      }
    });
  const locksDir = join(state, ".pulumi", "locks", "organization", "incident-sync-scale", "chaos");
  const stack: InterruptedStack = {
    sandbox,
    engine,
    project,
    state,
    passphrase,
    args,
    env,
    up: (extra = env()) => runCli(args(), project, extra),
    startUp: () =>
      spawn(process.execPath, [CLI, ...args()], {
        cwd: project,
        env: { PATH: process.env.PATH, ...env() },
        stdio: "ignore",
      }),
    declare: (variant, changed = incidents) =>
      writeScaleDefinitions(project, incidents, { variant, changed }),
    engineRunning: () => commandLineMatches(/pulumi/),
    upRunning: () => commandLineMatches(/(^|\/)pulumi\0up\0/),
    killRun: (run) => killRun(run, project),
    async expectConverged(variant) {
      const rows = incidentRows(db, SCALE_ACCOUNT);
      for (let index = 0; index < incidents; index += 1) {
        expect(rows.get(scaleId(index))?.name).toBe(
          `Scale incident ${scaleId(index)}, version ${variant}`,
        );
      }
      const opened = await openProjectStack({
        projectDir: project,
        stackName: "chaos",
        backendUrl: `file://${state}`,
        passphrase,
        engine,
        log: () => {},
      });
      try {
        const exported = await opened.exportState();
        const ids = (exported.deployment.resources ?? [])
          .filter((resource) => resource.type.endsWith("incident-sync:Incident"))
          .map((resource) => resource.inputs?.incidentId);
        expect(new Set(ids).size).toBe(incidents);
        expect(ids).toHaveLength(incidents);
        expect(exported.deployment.pending_operations ?? []).toEqual([]);
      } finally {
        opened.close();
      }
    },
    locks: () => {
      try {
        // A lock is a .json file; the .json.attrs beside it is the storage's metadata.
        return readdirSync(locksDir).filter((file) => file.endsWith(".json"));
      } catch {
        return [];
      }
    },
    close: () => sandbox.close(),
  };
  stack.declare(0);
  const first = await stack.up();
  expect(first.exitCode, first.stdout + first.stderr).toBe(0);
  return stack;
}

export { SCALE_ACCOUNT, SCALE_API_KEY, scaleId };
