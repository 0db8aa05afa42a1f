import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleDefinitions,
  scaleId,
  scaleSeed,
  writeScaleDefinitions,
  writeScaleProject,
} from "../../../bench/support/scale-project.mjs";
import { openProjectStack, resolveEngine } from "../../../src/engine";
import { CLI, type CliRun, pipelineEnv, runCli, upArgs } from "../../cli/run-cli";
import { incidentRows } from "./emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./emulator-sandbox";
import { killRun, processesIn } from "./processes";

/**
 * A stack whose new incidents `incident-sync up` claims before it adopts them, driven as a
 * pipeline runs it, for the tests of claims: `npm run reliability`'s claims that fail (test/reliability/claims.test.ts)
 * and R7's and issue 36's in `npm run reliability`. The emulator holds `incidents` scale
 * incidents; the stack declares some of them, each resolved when its definition goes.
 */
export interface ClaimsStack {
  readonly sandbox: EmulatorSandbox;
  readonly project: string;
  /** `incident-sync up`'s arguments for this stack, then `extra`. */
  args(...extra: string[]): string[];
  /** The variables a pipeline gives it. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs `incident-sync up` to its end. */
  up(extra?: { args?: string[]; env?: NodeJS.ProcessEnv }): Promise<CliRun>;
  /** Starts `incident-sync up` in the background; its stderr as it comes, when `onStderr`. */
  startUp(onStderr?: (text: string) => void): ChildProcess;
  /** Declares the scale incidents of `indexes` (each with `onRemove: resolve`), and no other. */
  declareOnly(indexes: readonly number[]): void;
  /** Declares the first `count` scale incidents. */
  declare(count: number): void;
  /** Whether the incident of `index` was adopted: it bears its definition's name. */
  adopted(index: number): boolean;
  /** The live status of the incident of `index`. */
  status(index: number): string | undefined;
  /** Whether a `pulumi up` without `--target` (the apply, not a claim) runs in the project. */
  applying(): boolean;
  /** Kills a run and everything in the project (`killRun`). */
  kill(run: ChildProcess): Promise<void>;
  /** How many incidents the stack's state holds. */
  incidentsInState(): Promise<number>;
  close(): Promise<void>;
}

export interface ClaimsStackOptions {
  /** The stack's name; the emulator's folder and the passphrase are named after it. */
  readonly stack: string;
  /** Scale incidents the emulator holds, and the stack may declare. */
  readonly incidents: number;
  /** `incident-sync:retries`: few, so an injected failure fails a claim. */
  readonly retries: number;
  /** The first incidents declared, applied by a first `up` before the stack is handed over. */
  readonly declared: number;
}

export async function startClaimsStack(options: ClaimsStackOptions): Promise<ClaimsStack> {
  const { stack: name, incidents } = options;
  const sandbox = await startEmulatorSandbox(name, scaleSeed(incidents, 0));
  const state = join(sandbox.root, "state");
  mkdirSync(state);
  const project = writeScaleProject(join(sandbox.root, "project"));
  const passphrase = `${name}-passphrase`;
  writeFileSync(
    join(project, `Pulumi.${name}.yaml`),
    `config:\n  incident-sync:retries: "${options.retries}"\n`,
  );
  writeScaleDefinitions(project, 0);
  const documents = scaleDefinitions(incidents, { evidenceShare: 0 })
    .split("---\n")
    .map((document) => `${document}onRemove: resolve\n`);
  const target = {
    project,
    stack: name,
    state,
    apiUrl: sandbox.emulator.url,
    accountId: SCALE_ACCOUNT,
  };
  const args = (...extra: string[]) => upArgs(target, ...extra);
  const env = pipelineEnv(SCALE_API_KEY, passphrase);
  const row = (index: number) => incidentRows(sandbox.db, SCALE_ACCOUNT).get(scaleId(index));
  const claims: ClaimsStack = {
    sandbox,
    project,
    args,
    env,
    up: (extra = {}) => runCli(args(...(extra.args ?? [])), project, { ...env, ...extra.env }),
    startUp(onStderr) {
      const run = spawn(process.execPath, [CLI, ...args()], {
        cwd: project,
        env: { PATH: process.env.PATH, ...env },
        stdio: ["ignore", "ignore", onStderr ? "pipe" : "ignore"],
      });
      run.stderr?.on("data", (chunk: Buffer) => onStderr?.(chunk.toString("utf8")));
      return run;
    },
    declareOnly: (indexes) =>
      writeFileSync(
        join(project, "incidents", "scale.yaml"),
        indexes.map((index) => documents[index]).join("---\n"),
      ),
    declare: (count) => claims.declareOnly(Array.from({ length: count }, (_, index) => index)),
    adopted: (index) => row(index)?.name.startsWith("Scale incident") === true,
    status: (index) => row(index)?.status,
    applying: () =>
      processesIn(project).some((pid) => {
        try {
          const line = readFileSync(`/proc/${pid}/cmdline`, "utf8");
          return /(^|\/)pulumi\0up\0/.test(line) && !line.includes("--target");
        } catch {
          return false;
        }
      }),
    kill: (run) => killRun(run, project),
    async incidentsInState() {
      const opened = await openProjectStack({
        projectDir: project,
        stackName: name,
        backendUrl: `file://${state}`,
        passphrase,
        engine: await resolveEngine(),
        log: () => {},
      });
      try {
        const resources = (await opened.exportState()).deployment.resources ?? [];
        return resources.filter((resource) => resource.type.endsWith(":Incident")).length;
      } finally {
        opened.close();
      }
    },
    close: () => sandbox.close(),
  };
  claims.declare(options.declared);
  const first = await claims.up();
  expect(first.exitCode, first.stdout + first.stderr).toBe(0);
  return claims;
}

export { scaleId };
