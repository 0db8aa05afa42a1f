import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
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
import { eventually, killAll, processesIn, processTree } from "./support/processes";

const timeout = 300_000;
const KEPT = 3;
const ADDED = 10;
/** The incident the claim-failure cases add: never declared by the kill case. */
const LAST = KEPT + ADDED;

/**
 * `incident-sync up` skips per-step checkpoints, so it claims (records) the incidents new to
 * the state before it adopts them; one stack serves the review's kill case (issue 22) and the
 * claims that cannot be recorded (issue 36).
 */
describe("claims on the real engine", () => {
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
  /** The scale incidents of `indexes`, each resolved when its definition is removed. */
  const declareOnly = (indexes: readonly number[]) => {
    const documents = scaleDefinitions(LAST + 1, { evidenceShare: 0 }).split("---\n");
    writeFileSync(
      join(project, "incidents", "scale.yaml"),
      indexes.map((index) => `${documents[index]}onRemove: resolve\n`).join("---\n"),
    );
  };
  const range = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, offset) => from + offset);
  /** The first `count` scale incidents. */
  const declare = (count: number) => declareOnly(range(0, count));
  const rows = () => incidentRows(sandbox.db, SCALE_ACCOUNT);
  const adopted = (index: number) => rows().get(scaleId(index))?.name.startsWith("Scale incident");

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("claims", scaleSeed(LAST + 1, 0));
    state = join(sandbox.root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(sandbox.root, "project"));
    // No retries, so an injected failure fails a claim at once.
    writeFileSync(join(project, "Pulumi.claims.yaml"), 'config:\n  incident-sync:retries: "0"\n');
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

  it(
    "says they were not adopted, and why, and fails the run",
    async () => {
      declareOnly([...range(0, KEPT), LAST]);
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
      const added = report.incidents.find((step) => step.resource === scaleId(LAST));
      expect(added?.action).toBe("not adopted");
      // Its own claim's error: why it could not be recorded, and so was not adopted.
      expect(added?.error).toMatch(
        /^GET \/v1\/status-pages\/incidents\/inc-scale-0013\/incident-updates failed: 503 /,
      );
      expect(adopted(LAST)).toBe(false);
      declare(KEPT);
    },
    timeout,
  );

  it(
    "says none was adopted when the key is refused, naming MONITORING_API_KEY, where the key came from",
    async () => {
      declareOnly([...range(0, KEPT), LAST]);
      const run = await runCli(args(), project, { ...env, MONITORING_API_KEY: "not-the-key-0123" });
      declare(KEPT);
      expect(run.exitCode).toBe(1);
      expect(run.stdout).not.toMatch(/\b\d+ adopted\b/);
      expect(run.stdout).toMatch(/Stack claims: up failed \(1 not adopted, 3 unchanged;/);
      expect(run.stdout).toContain(`  ✗ ${scaleId(LAST)} not adopted\n`);
      expect(run.stdout).toContain(`✗ ${scaleId(LAST)}: GET /v1/status-pages/incidents/`);
      expect(run.stdout).toContain(
        "The API key was refused: check MONITORING_API_KEY or --api-key.",
      );
      expect(run.stdout).not.toContain("incident-sync:apiKey");
      expect(`${run.stdout}${run.stderr}`).not.toContain("not-the-key-0123");
    },
    timeout,
  );
});
