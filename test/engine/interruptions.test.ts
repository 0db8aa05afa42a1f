import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleId,
  scaleSeed,
  writeScaleDefinitions,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import type { RunningEmulator } from "../../src/emulator";
import { type EngineLocation, openProjectStack, resolveEngine } from "../../src/engine";
import { CLI, runCli } from "../cli/run-cli";
import { incidentRows } from "./support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./support/emulator-sandbox";
import { eventually, killAll, processesIn, processTree } from "./support/processes";

const timeout = 1_200_000;
const INCIDENTS = 30;
const KILLS = 20;

/**
 * What real runners do to a run: kill -9 of the whole process tree (a cancelled CI job), of
 * the host alone (a lost runner), SIGTERM, and a lock left on another machine. After each,
 * one more `incident-sync up` must converge with nothing lost or duplicated.
 */
describe("interrupted runs of incident-sync up", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let project: string;
  let state: string;
  const passphrase = "interruptions-passphrase";

  const args = () => [
    "up",
    "--project",
    project,
    "--stack",
    "chaos",
    "--state",
    state,
    "--api-url",
    emulator.url,
    "--account-id",
    SCALE_ACCOUNT,
  ];
  const env = () => ({
    MONITORING_API_KEY: SCALE_API_KEY,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    HOME: process.env.HOME ?? tmpdir(),
  });
  const startUp = (): ChildProcess =>
    spawn(process.execPath, [CLI, ...args()], {
      cwd: project,
      env: { PATH: process.env.PATH, ...env() },
      stdio: "ignore",
    });
  const engineRunning = () =>
    processesIn(project).some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pulumi");
      } catch {
        return false;
      }
    });
  const upRunning = () =>
    processesIn(project).some((pid) => {
      try {
        return /(^|\/)pulumi\0up\0/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
      } catch {
        return false;
      }
    });
  const expectConverged = async (variant: number) => {
    const rows = incidentRows(db, SCALE_ACCOUNT);
    for (let index = 0; index < INCIDENTS; index += 1) {
      expect(rows.get(scaleId(index))?.name).toBe(
        `Scale incident ${scaleId(index)}, version ${variant}`,
      );
    }
    const stack = await openProjectStack({
      projectDir: project,
      stackName: "chaos",
      backendUrl: `file://${state}`,
      passphrase,
      engine,
      log: () => {},
    });
    try {
      const exported = await stack.exportState();
      const incidents = (exported.deployment.resources ?? []).filter((resource) =>
        resource.type.endsWith("incident-sync:Incident"),
      );
      const ids = incidents.map((resource) => resource.inputs?.incidentId);
      expect(new Set(ids).size).toBe(INCIDENTS);
      expect(ids).toHaveLength(INCIDENTS);
      expect(exported.deployment.pending_operations ?? []).toEqual([]);
    } finally {
      stack.close();
    }
  };

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("interrupt", scaleSeed(INCIDENTS));
    ({ root, emulator, db } = sandbox);
    state = join(root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(root, "project"));
    writeScaleDefinitions(project, INCIDENTS, { variant: 0, changed: INCIDENTS });
    const first = await runCli(args(), project, env());
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    `converges in one more up after kill -9 of the whole up process tree at random points, ${KILLS} times`,
    async () => {
      const outcomes = { killedWhileEngineRan: 0, killedBeforeEngine: 0, finishedBeforeKill: 0 };
      for (let variant = 1; variant <= KILLS; variant += 1) {
        writeScaleDefinitions(project, INCIDENTS, { variant, changed: INCIDENTS });
        const run = startUp();
        const exited = new Promise((resolve) => run.once("exit", resolve));
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 5_000));
        if (run.exitCode !== null) outcomes.finishedBeforeKill += 1;
        else if (engineRunning()) outcomes.killedWhileEngineRan += 1;
        else outcomes.killedBeforeEngine += 1;
        killAll([...processTree(run.pid ?? 0), ...processesIn(project)]);
        await exited;
        // A process started between the look and the kill goes too.
        killAll(processesIn(project));
        expect(await eventually(() => processesIn(project).length === 0, 10_000)).toBe(true);
        const next = await runCli(args(), project, env());
        expect(next.exitCode, next.stdout + next.stderr).toBe(0);
        await expectConverged(variant);
      }
      // Most kills must land while the engine works, or the test proves little.
      expect(outcomes.killedWhileEngineRan).toBeGreaterThanOrEqual(KILLS / 2);
      console.log(`kill -9 outcomes over ${KILLS} runs: ${JSON.stringify(outcomes)}`);
    },
    timeout,
  );

  it(
    "stops the engine and its plugins when the host is killed alone, and the next up clears its stale lock with a notice",
    async () => {
      writeScaleDefinitions(project, INCIDENTS, { variant: 100, changed: INCIDENTS });
      const run = startUp();
      expect(await eventually(engineRunning, 60_000)).toBe(true);
      run.kill("SIGKILL");
      expect(await eventually(() => processesIn(project).length === 0, 30_000)).toBe(true);
      const next = await runCli(args(), project, env());
      expect(next.exitCode, next.stdout + next.stderr).toBe(0);
      await expectConverged(100);
    },
    timeout,
  );

  it(
    "stops gracefully on SIGTERM: the engine releases the lock and leaves no process behind",
    async () => {
      writeScaleDefinitions(project, INCIDENTS, { variant: 101, changed: INCIDENTS });
      const run = startUp();
      // SIGTERM once the engine is applying: the stack is locked and steps are in flight.
      expect(await eventually(upRunning, 60_000)).toBe(true);
      const exited = new Promise<number | null>((resolve) =>
        run.once("exit", (code) => resolve(code)),
      );
      run.kill("SIGTERM");
      expect(await exited).toBe(143);
      expect(await eventually(() => processesIn(project).length === 0, 30_000)).toBe(true);
      const locks = join(state, ".pulumi", "locks", "organization", "incident-sync-scale", "chaos");
      // A lock is a .json file; the .json.attrs beside it is the storage's metadata.
      const held = () => readdirOrEmpty(locks).filter((name) => name.endsWith(".json"));
      expect(await eventually(() => held().length === 0, 5_000)).toBe(true);
      const next = await runCli(args(), project, env());
      expect(next.exitCode).toBe(0);
      await expectConverged(101);
    },
    timeout,
  );

  it(
    "names the incident-sync command that clears a lock held on another machine, and cancel clears it",
    async () => {
      const locks = join(state, ".pulumi", "locks", "organization", "incident-sync-scale", "chaos");
      mkdirSync(locks, { recursive: true });
      writeFileSync(
        join(locks, "lost-runner.json"),
        JSON.stringify({
          pid: 4242,
          username: "runner",
          hostname: `not-${hostname()}`,
          timestamp: "2026-11-23T08:00:00Z",
        }),
      );
      const locked = await runCli(args(), project, env());
      expect(locked.exitCode).toBe(1);
      expect(
        locked.stderr.replace(hostname(), "<host>").replace(state, "<state>"),
      ).toMatchInlineSnapshot(`
        "incident-sync up: Stack chaos is locked by pid 4242 of runner@not-<host> since 2026-11-23T08:00:00Z: another run is in progress, or one was lost on another machine. When no run is in progress, clear the lock with \`incident-sync cancel --stack chaos --state <state>\` (for npm start's stack: \`npm start -- --cancel\`).
        "
      `);
      const cancel = await runCli(
        ["cancel", "--project", project, "--stack", "chaos", "--state", state],
        project,
        env(),
      );
      expect(cancel.exitCode).toBe(0);
      expect(cancel.stdout.replace(hostname(), "<host>")).toMatchInlineSnapshot(`
        "Cleared the lock of stack chaos held by pid 4242 of runner@not-<host> since 2026-11-23T08:00:00Z.
        "
      `);
      expect((await runCli(args(), project, env())).exitCode).toBe(0);
    },
    timeout,
  );

  it(
    "cancel of a mistyped stack says so and creates nothing",
    async () => {
      const stacks = () => readdirOrEmpty(join(state, ".pulumi", "stacks", "incident-sync-scale"));
      const before = stacks();
      const cancel = await runCli(
        ["cancel", "--project", project, "--stack", "chaso", "--state", state],
        project,
        env(),
      );
      expect(cancel.exitCode).toBe(1);
      expect(cancel.stderr).toContain("chaso");
      expect(stacks()).toEqual(before);
    },
    timeout,
  );

  it(
    "reads the passphrase from PULUMI_CONFIG_PASSPHRASE_FILE, as pipelines that keep it in a file do",
    async () => {
      const file = join(root, "passphrase");
      writeFileSync(file, passphrase, { mode: 0o600 });
      writeScaleDefinitions(project, INCIDENTS, { variant: 103, changed: 2 });
      const { PULUMI_CONFIG_PASSPHRASE: _inline, ...withoutInline } = env();
      const run = await runCli(args(), project, {
        ...withoutInline,
        PULUMI_CONFIG_PASSPHRASE_FILE: file,
      });
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(incidentRows(db, SCALE_ACCOUNT).get(scaleId(0))?.name).toContain("version 103");
    },
    timeout,
  );

  it(
    "never puts the API key in an argument or the environment of any pulumi command",
    async () => {
      const wrapper = join(root, "wrapper");
      mkdirSync(wrapper);
      const log = join(root, "pulumi-calls.log");
      writeFileSync(
        join(wrapper, "pulumi"),
        `#!/bin/sh\n{ printf 'ARGS'; for a in "$@"; do printf ' %s' "$a"; done; printf '\\n'; env | sed 's/^/ENV /'; } >> ${JSON.stringify(log)}\nexec ${JSON.stringify(engine.pulumi)} "$@"\n`,
      );
      chmodSync(join(wrapper, "pulumi"), 0o755);
      writeScaleDefinitions(project, INCIDENTS, { variant: 102, changed: 3 });
      const run = await runCli(args(), project, { ...env(), INCIDENT_SYNC_PULUMI_BIN: wrapper });
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      const calls = readFileSync(log, "utf8");
      expect(calls).toContain("ARGS config set --secret");
      expect(calls).toContain("ARGS up --yes --skip-preview");
      expect(calls).not.toContain(SCALE_API_KEY);
    },
    timeout,
  );
});

function readdirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
