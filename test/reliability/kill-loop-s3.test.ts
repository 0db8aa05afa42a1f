import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleId,
  scaleSeed,
  writeScaleDefinitions,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import { resolveEngine } from "../../src/engine";
import { incidentRows } from "../engine/support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { plainCliBlock } from "../engine/support/plain-cli-blocks";
import { plainCliEnv } from "../engine/support/plain-cli-env";
import { eventually, killAll, killRun, processesIn } from "../engine/support/processes";
import { sh, shAll } from "../engine/support/shell";
import { type StateBackend, startS3Backend } from "../support/state-backends.mjs";
import { mostOf, sized } from "./size";

const timeout = 1_800_000;
/** Incidents the stack holds before the first kill. */
const BASE = sized({ full: 40, smallest: 5 });
/** Incidents each round adds: the adoptions a kill can catch. */
const ADDED = sized({ full: 20, smallest: 3 });
const KILLS = sized({ full: 12, smallest: 2 });

interface StateResource {
  type: string;
  inputs?: { incidentId?: string };
}
interface ExportedState {
  deployment: { resources?: StateResource[]; pending_operations?: unknown[] };
}

/**
 * R6 of the reliability suite (`npm run reliability`): the README's plain-CLI path, with the
 * state on an S3-compatible backend (moto, on loopback) and checkpoints skipped as the README's
 * apply block skips them, killed with kill -9 at random points KILLS times in a row. Each
 * round changes every incident and adds ADDED new ones, so a kill can land while incidents are
 * adopted. After each kill the README's after-a-kill block (`pulumi cancel`, then the apply)
 * must converge with nothing lost or duplicated, recording every incident the killed run
 * adopted. Counted per kill: the incidents the killed run adopted (its PUT reached the status
 * page) that the state does not hold. Those are the README's stated risk: until a run
 * completes, nothing would resolve them if their definitions were removed. How often a kill
 * leaves some depends on when it lands (here 0–2 s after the first PUT), so the count shows
 * that it happens and that the after-a-kill block records them, not a rate. BENCHMARKS.md
 * records the figures.
 */
describe("kill -9 of plain pulumi up with checkpoints skipped, state on S3", () => {
  let sandbox: EmulatorSandbox;
  let backend: StateBackend | undefined;
  let project: string;
  let env: Record<string, string>;

  const total = BASE + KILLS * ADDED;
  const names = (variant: number, count: number) =>
    new Map(
      Array.from({ length: count }, (_, index) => [
        scaleId(index),
        `Scale incident ${scaleId(index)}, version ${variant}`,
      ]),
    );
  const live = () => incidentRows(sandbox.db, SCALE_ACCOUNT);
  const control = () => sandbox.emulator.emulator.control;
  const puts = () => control().stats().byOperation.updateIncident?.total ?? 0;
  const exported = async (): Promise<ExportedState> => {
    // To a file: the storage's SDK writes its own notices to the terminal.
    const file = join(sandbox.root, "export.json");
    const result = await sh(`pulumi stack export --file ${file}`, project, env);
    expect(result.code, result.output).toBe(0);
    return JSON.parse(readFileSync(file, "utf8")) as ExportedState;
  };
  const heldIds = (state: ExportedState) =>
    (state.deployment.resources ?? [])
      .filter((resource) => resource.type.endsWith("incident-sync:Incident"))
      .map((resource) => resource.inputs?.incidentId);
  /** The README's apply line, in the background, as a pipeline runs it. */
  const startUp = (): ChildProcess => {
    const line = plainCliBlock("apply").find((command) => command.includes("pulumi up"));
    if (!line) throw new Error("the plain-CLI apply block has no pulumi up");
    return spawn("bash", ["-c", line], { cwd: project, env, stdio: "ignore" });
  };

  beforeAll(async () => {
    const engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("kill-loop-s3", scaleSeed(total));
    backend = await startS3Backend();
    project = writeScaleProject(join(sandbox.root, "project"));
    // Some latency spreads a run's PUTs over seconds, so the kills land among them.
    control().setFaults({ latencyMs: 40 });
    env = plainCliEnv(engine, join(sandbox.root, "home"), {
      PULUMI_CONFIG_PASSPHRASE: "kill-loop-s3-passphrase",
      PULUMI_BACKEND_URL: backend.url,
      ...backend.env,
    });
    await shAll(
      [
        'pulumi login "$PULUMI_BACKEND_URL"',
        "pulumi stack init prod",
        `pulumi config set incident-sync:baseUrl ${sandbox.emulator.url}`,
        `pulumi config set incident-sync:accountId ${SCALE_ACCOUNT}`,
        `printf '%s' ${SCALE_API_KEY} | pulumi config set --secret incident-sync:apiKey`,
        "pulumi config set incident-sync:rateLimit 60000",
      ],
      project,
      env,
    );
    writeScaleDefinitions(project, BASE, { variant: 0, changed: BASE });
    const first = await shAll(plainCliBlock("apply").slice(-1), project, env);
    expect(first.at(-1)?.code).toBe(0);
  }, timeout);

  afterAll(async () => {
    killAll(processesIn(project ?? "/nonexistent"));
    await backend?.stop();
    await sandbox?.close();
  });

  it(
    `converges with the README's after-a-kill block after each of ${KILLS} kills`,
    async () => {
      const outcomes = {
        killedWhileEngineRan: 0,
        killedBeforeEngine: 0,
        finishedBeforeKill: 0,
        /** Kills that left adopted incidents on no record (the stated risk). */
        killsWithUnrecordedAdoptions: 0,
        unrecordedAdoptions: 0,
        /** Runs that made no PUT in 120 s, killed anyway. */
        killedBeforeFirstPut: 0,
        /** Per kill: the PUTs the killed run had made. */
        putsBeforeKill: [] as number[],
      };
      for (let round = 1; round <= KILLS; round += 1) {
        const count = BASE + round * ADDED;
        writeScaleDefinitions(project, count, { variant: round, changed: count });
        control().resetStats();
        const run = startUp();
        // Killed while it applies, where the risk lies: after its first PUT, at a random point.
        const applying = await eventually(() => puts() > 0 || run.exitCode !== null, 120_000);
        if (!applying) outcomes.killedBeforeFirstPut += 1;
        // The program's reads are a few list pages now, so the PUTs come at once: 0-2 s.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2_000));
        if (run.exitCode !== null) outcomes.finishedBeforeKill += 1;
        else if (processesIn(project).length > 1) outcomes.killedWhileEngineRan += 1;
        else outcomes.killedBeforeEngine += 1;
        outcomes.putsBeforeKill.push(puts());
        await killRun(run, project);

        // The adoptions this round's run made that the state does not hold.
        const held = new Set(heldIds(await exported()));
        const wanted = names(round, count);
        const rows = live();
        const unrecorded = [...wanted].filter(
          ([id, name]) => rows.get(id)?.name === name && !held.has(id),
        ).length;
        if (unrecorded > 0) outcomes.killsWithUnrecordedAdoptions += 1;
        outcomes.unrecordedAdoptions += unrecorded;

        // The README's block after a killed run, word for word.
        const after = await shAll(plainCliBlock("after-a-kill"), project, env);
        expect(after.at(-1)?.code).toBe(0);
        const state = await exported();
        const ids = heldIds(state);
        expect(ids).toHaveLength(count);
        expect(new Set(ids).size).toBe(count);
        expect(state.deployment.pending_operations ?? []).toEqual([]);
        const now = live();
        for (const [id, name] of wanted) expect(now.get(id)?.name).toBe(name);
      }
      // Most kills must land while the engine works, or the run proves little.
      expect(outcomes.killedWhileEngineRan).toBeGreaterThanOrEqual(mostOf(KILLS));
      console.log(`R6 kill -9 on S3 over ${KILLS} runs: ${JSON.stringify(outcomes)}`);
    },
    timeout,
  );
});
