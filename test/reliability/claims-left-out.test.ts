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
import { CLI, runCli } from "../cli/run-cli";
import { incidentRows } from "../engine/support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import {
  eventually,
  killAll,
  killEverythingIn,
  processesIn,
  processTree,
} from "../engine/support/processes";

const timeout = 300_000;

/**
 * Issue 36's case, once, in `npm run reliability`: R7 repeats it under random faults and kills,
 * and test/engine-runner/claimed-up.test.ts pins the claims' messages in `npm test`.
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
});
