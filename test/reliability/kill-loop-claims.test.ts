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

const timeout = 1_800_000;
/** Incidents the stack keeps throughout. */
const KEPT = 10;
/** Incidents each round adds (new to the state, so claimed), then removes. */
const BATCH = 10;
const ROUNDS = 10;

/**
 * R7 of the reliability suite (`npm run reliability`, issue 36): the kill loop with faults while
 * new incidents are claimed. Each round adds BATCH new definitions (`onRemove: resolve`) and
 * runs `incident-sync up` while the emulator fails half its requests and resets a tenth of its
 * connections, with one retry a call (`incident-sync:retries 1`), so recording the claims fails
 * for some; once the apply starts the API answers, slowly. The whole process tree is killed
 * with kill -9 during the claims or among the adoptions (every other round once a random 1 to
 * half of the round's incidents are adopted). Then
 * the round's definitions are removed and one more `up` (no faults) must exit 0 and leave every
 * incident of the round that any run adopted resolved: nothing adopted without a record. At
 * least half the kills must land among the adoptions (some of the round's adopted, not all).
 */
describe("kill -9 while claims fail under faults", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  let state: string;
  const passphrase = "kill-loop-claims-passphrase";
  const STACK = "claims";
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
  const documents = scaleDefinitions(KEPT + ROUNDS * BATCH, { evidenceShare: 0 })
    .split("---\n")
    .map((document) => `${document}onRemove: resolve\n`);
  /** The kept incidents and, when given, one round's batch. */
  const declare = (round?: number) =>
    writeFileSync(
      join(project, "incidents", "scale.yaml"),
      [
        ...documents.slice(0, KEPT),
        ...(round === undefined
          ? []
          : documents.slice(batchStart(round), batchStart(round) + BATCH)),
      ].join("---\n"),
    );
  const batchStart = (round: number) => KEPT + (round - 1) * BATCH;
  const rows = () => incidentRows(sandbox.db, SCALE_ACCOUNT);
  const adopted = (index: number) => rows().get(scaleId(index))?.name.startsWith("Scale incident");
  /** Whether a `pulumi up` without `--target` (the apply, not a claim) runs in the project. */
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
    sandbox = await startEmulatorSandbox("kill-loop-claims", scaleSeed(KEPT + ROUNDS * BATCH, 0));
    state = join(sandbox.root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(sandbox.root, "project"));
    writeFileSync(join(project, `Pulumi.${STACK}.yaml`), 'config:\n  incident-sync:retries: "1"\n');
    writeScaleDefinitions(project, 0);
    declare();
    const first = await runCli(args(), project, env);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    `resolves every removed incident any run adopted, over ${ROUNDS} rounds of claim faults and kills`,
    async () => {
      const outcomes = {
        killedDuringClaims: 0,
        killedDuringApply: 0,
        killedAmongAdoptions: 0,
        finishedBeforeKill: 0,
        claimsLeftOut: 0,
        adoptedThenResolved: 0,
        neverAdopted: 0,
      };
      for (let round = 1; round <= ROUNDS; round += 1) {
        declare(round);
        sandbox.emulator.emulator.control.setFaults({ failRate: 0.5, resetRate: 0.1 });
        const run = spawn(process.execPath, [CLI, ...args()], {
          cwd: project,
          env: { PATH: process.env.PATH, ...env },
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        run.stderr?.on("data", (chunk: Buffer) => {
          stderr += chunk.toString("utf8");
        });
        const exited = new Promise((resolve) => run.once("exit", resolve));
        const batch = Array.from({ length: BATCH }, (_, index) => batchStart(round) + index);
        // The faults are the claims': once the apply runs, the API answers, slowly, so the
        // adoptions are spread out and a kill can land among them.
        const apply = setInterval(() => {
          if (applying())
            sandbox.emulator.emulator.control.setFaults({ latencyMs: 50, jitterMs: 1_500 });
        }, 100);
        // Odd rounds are killed at a random point (in the claims or the apply), even ones as
        // soon as the apply has adopted a random 1 to half of the round's incidents.
        if (round % 2 === 1) await sleep(1_000 + Math.random() * 10_000);
        else {
          const target = 1 + Math.floor((Math.random() * BATCH) / 2);
          const reached = () => {
            const now = rows();
            const done = batch.filter((i) =>
              now.get(scaleId(i))?.name.startsWith("Scale incident"),
            );
            return done.length >= target;
          };
          await eventually(() => reached() || run.exitCode !== null, 120_000, 20);
        }
        clearInterval(apply);
        const finished = run.exitCode !== null;
        const inApply = !finished && applying();
        if (finished) outcomes.finishedBeforeKill += 1;
        else if (inApply) outcomes.killedDuringApply += 1;
        else outcomes.killedDuringClaims += 1;
        killAll([...processTree(run.pid ?? 0), ...processesIn(project)]);
        await exited;
        expect(await killEverythingIn(project)).toBe(true);
        if (stderr.includes("Still could not record")) outcomes.claimsLeftOut += 1;
        sandbox.emulator.emulator.control.setFaults({});

        const adoptedByTheKilledRun = batch.filter(adopted);
        // Among the adoptions: the apply had adopted some of the round's incidents, not all.
        const among = adoptedByTheKilledRun.length;
        if (inApply && among > 0 && among < BATCH) outcomes.killedAmongAdoptions += 1;
        declare();
        const next = await runCli(args(), project, env);
        expect(next.exitCode, next.stdout + next.stderr).toBe(0);
        for (const index of batch) {
          if (adopted(index)) {
            expect(rows().get(scaleId(index))?.status, `round ${round}, ${scaleId(index)}`).toBe(
              "RESOLVED",
            );
          }
        }
        outcomes.adoptedThenResolved += adoptedByTheKilledRun.length;
        outcomes.neverAdopted += BATCH - adoptedByTheKilledRun.length;
      }
      console.log(
        `R7 claim faults and kill -9 over ${ROUNDS} rounds of ${BATCH} new incidents: ${JSON.stringify(outcomes)}`,
      );
      // The resolutions above prove something only for kills that left adoptions half done.
      expect(outcomes.killedAmongAdoptions).toBeGreaterThanOrEqual(ROUNDS / 2);
      expect(outcomes.adoptedThenResolved).toBeGreaterThan(0);
    },
    timeout,
  );
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
