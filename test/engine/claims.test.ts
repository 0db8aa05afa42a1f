import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleDefinitions,
  scaleId,
  scaleSeed,
  writeScaleDefinitions,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import { openProjectStack, resolveEngine } from "../../src/engine";
import { CLI, runCli } from "../cli/run-cli";
import { incidentRows } from "./support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./support/emulator-sandbox";
import {
  eventually,
  killAll,
  killEverythingIn,
  processesIn,
  processTree,
} from "./support/processes";

const timeout = 300_000;
const KEPT = 10;
const ADDED = 10;

/**
 * The review's case: `incident-sync up` skips per-step checkpoints, so before the claims a run
 * killed while adopting new incidents left them on no record, and once their definitions were
 * removed no run resolved them, whatever `onRemove` said.
 */
describe("incidents adopted by a run that was killed", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  let state: string;
  const passphrase = "claims-passphrase";
  const args = () => [
    "up",
    "--project",
    project,
    "--stack",
    "claims",
    "--state",
    state,
    "--api-url",
    sandbox.emulator.url,
    "--account-id",
    SCALE_ACCOUNT,
  ];
  const env = {
    MONITORING_API_KEY: SCALE_API_KEY,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    HOME: process.env.HOME ?? tmpdir(),
  };
  /** The first `count` scale incidents, each resolved when its definition is removed. */
  const declare = (count: number) =>
    writeFileSync(
      join(project, "incidents", "scale.yaml"),
      scaleDefinitions(KEPT + ADDED, { evidenceShare: 0 })
        .split("---\n")
        .slice(0, count)
        .map((document) => `${document}onRemove: resolve\n`)
        .join("---\n"),
    );
  const rows = () => incidentRows(sandbox.db, SCALE_ACCOUNT);
  const adopted = (index: number) => rows().get(scaleId(index))?.name.startsWith("Scale incident");

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("claims", scaleSeed(KEPT + ADDED, 0));
    state = join(sandbox.root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(sandbox.root, "project"));
    writeScaleDefinitions(project, 0);
    declare(KEPT);
    const first = await runCli(args(), project, env);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "are resolved by the next up once their definitions are removed with onRemove: resolve",
    async () => {
      declare(KEPT + ADDED);
      // Answers spread over 4 s, so the kill lands while the new incidents are being adopted.
      sandbox.emulator.emulator.control.setFaults({ latencyMs: 100, jitterMs: 4_000 });
      const run = spawn(process.execPath, [CLI, ...args()], {
        cwd: project,
        env: { PATH: process.env.PATH, ...env },
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => run.once("exit", resolve));
      const added = Array.from({ length: ADDED }, (_, index) => KEPT + index);
      expect(await eventually(() => added.some(adopted), 120_000)).toBe(true);
      killAll([...processTree(run.pid ?? 0), ...processesIn(project)]);
      await exited;
      killAll(processesIn(project));
      expect(await eventually(() => processesIn(project).length === 0, 10_000)).toBe(true);
      // The kill came before the run ended: some of the new incidents were not adopted yet.
      expect(added.every(adopted)).toBe(false);
      sandbox.emulator.emulator.control.setFaults({});

      declare(KEPT);
      const next = await runCli(args(), project, env);
      expect(next.exitCode, next.stdout + next.stderr).toBe(0);
      for (const index of added) expect(rows().get(scaleId(index))?.status).toBe("RESOLVED");
      for (let index = 0; index < KEPT; index += 1) {
        expect(rows().get(scaleId(index))?.status).toBe("INVESTIGATING");
      }
      const stack = await openProjectStack({
        projectDir: project,
        stackName: "claims",
        backendUrl: `file://${state}`,
        passphrase,
        engine: await resolveEngine(),
        log: () => {},
      });
      try {
        const resources = (await stack.exportState()).deployment.resources ?? [];
        expect(resources.filter((resource) => resource.type.endsWith(":Incident"))).toHaveLength(
          KEPT,
        );
      } finally {
        stack.close();
      }
    },
    timeout,
  );
});

/**
 * Issue 36: when recording the claims failed, `up` went on to adopt the new incidents
 * unrecorded ("the run below applies them unrecorded"), so a kill after some adoptions lost
 * them: once their definitions were removed, the next `up` exited 0 and left them open. Now
 * what the claim recorded is read back from the state, the record is tried once more, and an
 * incident still unrecorded is left out of the apply.
 */
describe("incidents whose claim could not be recorded", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  let state: string;
  const passphrase = "unrecorded-passphrase";
  const STACK = "unrecorded";
  const FIRST = 3;
  const LATER = 5;
  const args = () => [
    "up",
    "--project",
    project,
    "--stack",
    STACK,
    "--state",
    state,
    "--api-url",
    sandbox.emulator.url,
    "--account-id",
    SCALE_ACCOUNT,
  ];
  const env = {
    MONITORING_API_KEY: SCALE_API_KEY,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    HOME: process.env.HOME ?? tmpdir(),
  };
  const declare = (count: number) =>
    writeFileSync(
      join(project, "incidents", "scale.yaml"),
      scaleDefinitions(FIRST + LATER, { evidenceShare: 0 })
        .split("---\n")
        .slice(0, count)
        .map((document) => `${document}onRemove: resolve\n`)
        .join("---\n"),
    );
  const rows = () => incidentRows(sandbox.db, SCALE_ACCOUNT);
  const adopted = (index: number) => rows().get(scaleId(index))?.name.startsWith("Scale incident");
  /** Whether a `pulumi up` without `--target` (an apply, not a claim) runs in the project. */
  const applying = () =>
    processesIn(project).some((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return /(^|\/)pulumi\0up\0/.test(line) && !line.includes("--target");
      } catch {
        return false;
      }
    });

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("unrecorded", scaleSeed(FIRST + LATER, 0));
    state = join(sandbox.root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(sandbox.root, "project"));
    // No retries, so an injected failure fails a claim at once.
    writeFileSync(join(project, `Pulumi.${STACK}.yaml`), 'config:\n  incident-sync:retries: "0"\n');
    writeScaleDefinitions(project, 0);
    declare(FIRST);
    const first = await runCli(args(), project, env);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "are left out of the apply, so a run killed after it adopted others loses nothing",
    async () => {
      declare(FIRST + LATER);
      // Every request fails while the new incidents are claimed.
      sandbox.emulator.emulator.control.setFaults({ failRate: 1 });
      const run = spawn(process.execPath, [CLI, ...args()], {
        cwd: project,
        env: { PATH: process.env.PATH, ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      run.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        // The claims have failed for good: the apply meets a working, slow API.
        if (/Still could not record|applies them unrecorded/.test(stderr)) {
          sandbox.emulator.emulator.control.setFaults({ latencyMs: 100, jitterMs: 2_000 });
        }
      });
      const exited = new Promise((resolve) => run.once("exit", resolve));
      const later = Array.from({ length: LATER }, (_, index) => FIRST + index);
      // Killed once the apply adopted one of them, or has run for a while without doing so.
      expect(await eventually(applying, 120_000)).toBe(true);
      await eventually(() => later.some(adopted), 8_000);
      killAll([...processTree(run.pid ?? 0), ...processesIn(project)]);
      await exited;
      expect(await killEverythingIn(project)).toBe(true);
      sandbox.emulator.emulator.control.setFaults({});
      const adoptedBeforeRemoval = later.filter(adopted);

      declare(FIRST);
      const next = await runCli(args(), project, env);
      expect(next.exitCode, next.stdout + next.stderr).toBe(0);
      // The reproduction: whatever the killed run adopted is resolved once its definition goes.
      for (const index of later) {
        if (adopted(index)) expect(rows().get(scaleId(index))?.status).toBe("RESOLVED");
      }
      // And how: nothing was adopted unrecorded, and the run said which and why.
      expect(adoptedBeforeRemoval).toEqual([]);
      expect(stderr).toContain("trying once more");
      expect(stderr).toMatch(
        /Still could not record inc-scale-0003, inc-scale-0004, inc-scale-0005, inc-scale-0006, inc-scale-0007 \(the first error: .*503 Service Unavailable.*\): this run leaves them out, so nothing is adopted without a record/,
      );
    },
    timeout,
  );

  it(
    "says they were not adopted, and why, and fails the run",
    async () => {
      declare(FIRST + 1);
      sandbox.emulator.emulator.control.setFaults({ failRate: 1 });
      let run: Awaited<ReturnType<typeof runCli>>;
      try {
        run = await runCli([...args(), "--format", "json"], project, env);
      } finally {
        sandbox.emulator.emulator.control.setFaults({});
      }
      expect(run.exitCode).toBe(1);
      const report = JSON.parse(run.stdout) as {
        incidents: { resource: string; action: string; error: string | null }[];
      };
      const added = report.incidents.find((step) => step.resource === scaleId(FIRST));
      expect(added?.action).toBe("not adopted");
      // Its own claim's error: why it could not be recorded, and so was not adopted.
      expect(added?.error).toMatch(
        /^GET \/v1\/status-pages\/incidents\/inc-scale-0003\/incident-updates failed: 503 /,
      );
      expect(adopted(FIRST)).toBe(false);
      declare(FIRST);
    },
    timeout,
  );

  it(
    "says none was adopted when the key is refused, naming MONITORING_API_KEY, where the key came from",
    async () => {
      declare(FIRST + 1);
      const run = await runCli(args(), project, { ...env, MONITORING_API_KEY: "not-the-key-0123" });
      declare(FIRST);
      expect(run.exitCode).toBe(1);
      expect(run.stdout).not.toMatch(/\b\d+ adopted\b/);
      expect(run.stdout).toMatch(/Stack unrecorded: up failed \(1 not adopted, 3 unchanged;/);
      expect(run.stdout).toContain(`  ✗ ${scaleId(FIRST)} not adopted\n`);
      expect(run.stdout).toContain(`✗ ${scaleId(FIRST)}: GET /v1/status-pages/incidents/`);
      expect(run.stdout).toContain(
        "The API key was refused: check MONITORING_API_KEY or --api-key.",
      );
      expect(run.stdout).not.toContain("incident-sync:apiKey");
      expect(`${run.stdout}${run.stderr}`).not.toContain("not-the-key-0123");
    },
    timeout,
  );
});
