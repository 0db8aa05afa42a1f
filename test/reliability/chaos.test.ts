import { mkdirSync } from "node:fs";
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
import {
  type EngineLocation,
  type OperationOutcome,
  resolveEngine,
  runOperation,
} from "../../src/engine";
import { incidentRows } from "../engine/support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { sized } from "./size";

const timeout = 600_000;
const INCIDENTS = sized({ full: 100, smallest: 20 });
/**
 * The faults. At the smallest size a run makes a few dozen requests, so resets and 429 bursts
 * come more often there, or none might land and the run would show nothing.
 */
const FAULTS = {
  failRate: 0.2,
  resetRate: sized({ full: 0.05, smallest: 0.15 }),
  rateLimitEvery: sized({ full: 20, smallest: 10 }),
  rateLimitBurst: 3,
  retryAfterSeconds: 1,
};

/**
 * R1 of the reliability suite: what a real API does to a pipeline run. 100 incidents (20 at the
 * smallest size, ./size.ts) change
 * name and status in one `up` while the emulator answers 20% of requests with 503, resets 5%
 * of connections and sends bursts of 429 with Retry-After. One run must converge, with no
 * write lost (every incident as declared) and none duplicated (one status update each).
 */
describe("one up through injected faults", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let project: string;

  const up = (): Promise<OperationOutcome> =>
    runOperation({
      operation: "up",
      projectDir: project,
      stackName: "chaos",
      backendUrl: `file://${join(root, "state")}`,
      passphrase: "chaos-passphrase",
      pulumiHome: join(root, "pulumi-home"),
      engine,
      connection: { baseUrl: emulator.url, accountId: SCALE_ACCOUNT, apiKey: SCALE_API_KEY },
      // Faults, not the client's own limit, are what this run meets.
      settings: { rateLimit: "60000" },
      log: () => {},
    });

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("chaos", scaleSeed(INCIDENTS));
    ({ root, emulator, db } = sandbox);
    mkdirSync(join(root, "state"));
    project = writeScaleProject(join(root, "project"));
    writeScaleDefinitions(project, INCIDENTS, { variant: 0 });
    const first = await up();
    expect(first.kind === "ran" && first.result.ok).toBe(true);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "converges in one up under 20% 503s, 5% connection resets and 429 bursts, with no write lost or duplicated",
    async () => {
      writeScaleDefinitions(project, INCIDENTS, {
        variant: 1,
        changed: INCIDENTS,
        status: "IDENTIFIED",
      });
      emulator.emulator.control.resetStats();
      emulator.emulator.control.setFaults(FAULTS);
      let outcome: OperationOutcome;
      try {
        outcome = await up();
      } finally {
        emulator.emulator.control.setFaults({});
      }
      const stats = emulator.emulator.control.stats();
      expect(outcome.kind === "ran" && outcome.result.ok, JSON.stringify(outcome)).toBe(true);
      expect(outcome.kind === "ran" && outcome.result.changes).toEqual({ update: INCIDENTS });
      // The faults really happened.
      expect(stats.byStatus["503"] ?? 0).toBeGreaterThan(
        sized({ full: INCIDENTS * 0.1, smallest: 0 }),
      );
      expect(stats.byStatus["429"] ?? 0).toBeGreaterThan(0);
      expect(stats.byStatus.reset ?? 0).toBeGreaterThan(0);

      const rows = incidentRows(db, SCALE_ACCOUNT);
      const changed = db.prepare(
        "SELECT count(*) AS n FROM incident_updates WHERE account_id = ? AND incident_id = ? AND status = 'IDENTIFIED'",
      );
      // A PUT that posts status updates posts exactly one per incident, retries or not (no
      // write duplicated); one that only sets the field posts none.
      const posted = emulator.emulator.control.getBehaviour().putStatus === "posts-update" ? 1 : 0;
      for (let index = 0; index < INCIDENTS; index += 1) {
        const id = scaleId(index);
        expect(rows.get(id)).toMatchObject({
          name: `Scale incident ${id}, version 1`,
          status: "IDENTIFIED",
        });
        expect((changed.get(SCALE_ACCOUNT, id) as { n: number }).n).toBe(posted);
      }
      console.log(`R1 requests at the emulator: ${JSON.stringify(stats.byStatus)}`);
    },
    timeout,
  );
});
