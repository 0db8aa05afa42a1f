import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import { CLI, pipelineEnv, runCli, upArgs } from "../cli/run-cli";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { killRun } from "../engine/support/processes";
import { atMostOnce, onlyHeldBack } from "./held-back";
import { mostOf, sized } from "./size";

const timeout = 3_600_000;
const INCIDENTS = sized({ full: 50, smallest: 5 });
const ENTRIES = 3;
const ROUNDS = sized({ full: 10, smallest: 1 });
const KILLS_PER_ROUND = 2;

/** The definitions of round `round`: INCIDENTS new incidents of ENTRIES updates, every one notifying. */
function definitions(round: number): string {
  return Array.from({ length: INCIDENTS }, (_, index) => {
    const name = `Round ${round} incident ${index}`;
    const entries = ["INVESTIGATING", "IDENTIFIED", "RESOLVED"].slice(0, ENTRIES);
    return [
      `resource: r${round}-i${index}`,
      `name: ${name}`,
      "severity: MAJOR",
      "services: [svc-scale-a]",
      "updates:",
      ...entries.flatMap((status, entry) => [
        `  - status: ${status}`,
        `    message: ${name}, update ${entry + 1}.`,
        "    notify: true",
      ]),
    ].join("\n");
  }).join("\n---\n");
}

/**
 * R8 of the reliability suite (`npm run reliability`): opening incidents and posting their
 * updates is not idempotent, and a kill -9 may land between a request the service carried
 * out and the record of it. Each round declares INCIDENTS new incidents of ENTRIES updates
 * (each notifying subscribers), kills the whole `incident-sync up` process tree at random
 * moments KILLS_PER_ROUND times, then lets one more `up` finish: the account must then hold
 * each incident once, each update once, and have notified each update once.
 */
describe("kill -9 while opening incidents and posting their updates", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  let state: string;

  const args = () =>
    upArgs({
      project,
      stack: "open",
      state,
      apiUrl: sandbox.emulator.url,
      accountId: SCALE_ACCOUNT,
    });
  const env = () => pipelineEnv(SCALE_API_KEY, "kill-loop-open");
  const start = (): ChildProcess =>
    spawn(process.execPath, [CLI, ...args()], {
      cwd: project,
      env: { PATH: process.env.PATH, ...env() },
      stdio: "ignore",
    });
  const control = () => sandbox.emulator.emulator.control;
  /** The creates and posts the service answered since the last reset of its counts. */
  const writesSeen = () => {
    const { byOperation } = control().stats();
    return (byOperation.createIncident?.total ?? 0) + (byOperation.postIncidentUpdate?.total ?? 0);
  };
  /** The writes of round `round` still to make: one create and ENTRIES - 1 posts an incident. */
  const writes = (round: number) => Math.max(1, INCIDENTS * ENTRIES - heldOf(round).updates);
  /** What the account holds of round `round`: its incidents, their updates, the notifications. */
  const heldOf = (round: number) => {
    const incidents = sandbox.db
      .prepare("SELECT id FROM incidents WHERE account_id = ? AND name LIKE ?")
      .all(SCALE_ACCOUNT, `Round ${round} incident %`) as { id: string }[];
    const ids = incidents.map((row) => row.id);
    const count = (sql: string) =>
      ids.reduce(
        (sum, id) =>
          sum + Number((sandbox.db.prepare(sql).get(SCALE_ACCOUNT, id) as { n: number }).n),
        0,
      );
    return {
      incidents: ids.length,
      updates: count(
        "SELECT COUNT(*) AS n FROM incident_updates WHERE account_id = ? AND incident_id = ?",
      ),
      notifications: count(
        "SELECT COUNT(*) AS n FROM notifications WHERE account_id = ? AND incident_id = ?",
      ),
      notifiedTwice: Number(
        (
          sandbox.db
            .prepare(
              "SELECT COUNT(*) AS n FROM (SELECT update_id FROM notifications WHERE account_id = ? GROUP BY update_id HAVING COUNT(*) > 1)",
            )
            .get(SCALE_ACCOUNT) as { n: number }
        ).n,
      ),
    };
  };

  /** How many names the round's incidents have: one each, or one was opened twice. */
  const namesOf = (round: number) =>
    Number(
      (
        sandbox.db
          .prepare(
            "SELECT COUNT(DISTINCT name) AS n FROM incidents WHERE account_id = ? AND name LIKE ?",
          )
          .get(SCALE_ACCOUNT, `Round ${round} incident %`) as { n: number }
      ).n,
    );

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("kill-loop-open", {
      accounts: [
        {
          id: SCALE_ACCOUNT,
          apiKeys: [SCALE_API_KEY],
          services: [{ id: "svc-scale-a", name: "Scale A" }],
        },
      ],
    });
    state = join(sandbox.root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(sandbox.root, "project"));
    writeFileSync(join(project, "incidents", "services.yaml"), "svc-scale-a: Scale A\n");
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    `opens ${INCIDENTS} incidents of ${ENTRIES} updates once each through ${ROUNDS} rounds of ${KILLS_PER_ROUND} kills`,
    async () => {
      // How long a whole round takes, so the kills land anywhere in it.
      writeFileSync(join(project, "incidents", "open.yaml"), definitions(0));
      const begun = Date.now();
      const whole = await runCli(args(), project, env());
      expect(whole.exitCode, whole.stdout + whole.stderr).toBe(0);
      const span = Date.now() - begun;
      expect(heldOf(0)).toEqual({
        incidents: INCIDENTS,
        updates: INCIDENTS * ENTRIES,
        notifications: INCIDENTS * ENTRIES,
        notifiedTwice: 0,
      });
      const outcomes = {
        killed: 0,
        finishedBeforeKill: 0,
        heldBack: 0,
        writesAtKill: [] as number[],
      };
      for (let round = 1; round <= ROUNDS; round += 1) {
        writeFileSync(join(project, "incidents", "open.yaml"), definitions(round));
        for (let attempt = 0; attempt < KILLS_PER_ROUND; attempt += 1) {
          // Most kills land among the writes (after the k-th create or post the service
          // answers), the rest at a random time, which may be before the first write.
          const target = Math.random() < 0.2 ? 0 : 1 + Math.floor(Math.random() * writes(round));
          control().resetStats();
          const run = start();
          if (target === 0) {
            await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * span));
          } else {
            const deadline = Date.now() + 3 * span;
            while (run.exitCode === null && writesSeen() < target && Date.now() < deadline) {
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
          }
          if (run.exitCode !== null) outcomes.finishedBeforeKill += 1;
          else outcomes.killed += 1;
          await killRun(run, project);
          outcomes.writesAtKill.push(writesSeen());
        }
        const last = await runCli(args(), project, env());
        const output = last.stdout + last.stderr;
        const held = heldOf(round);
        // Nothing is made or told twice, whatever the kills hit.
        expect(atMostOnce({ ...held, names: namesOf(round) }), `round ${round}: ${output}`).toBe(
          true,
        );
        expect(held.incidents).toBeLessThanOrEqual(INCIDENTS);
        if (last.exitCode === 0) {
          expect(held, `round ${round}`).toEqual({
            incidents: INCIDENTS,
            updates: INCIDENTS * ENTRIES,
            notifications: INCIDENTS * ENTRIES,
            notifiedTwice: 0,
          });
        } else {
          // A kill between a write's intent and its send: held back for its window, as designed.
          expect(onlyHeldBack(output), output).toBe(true);
          outcomes.heldBack += 1;
        }
      }
      expect(outcomes.killed).toBeGreaterThanOrEqual(mostOf(ROUNDS * KILLS_PER_ROUND));
      // Most kills must land among the writes, or the run proves little.
      const amongWrites = outcomes.writesAtKill.filter((count) => count > 0).length;
      expect(amongWrites).toBeGreaterThanOrEqual(mostOf(ROUNDS * KILLS_PER_ROUND));
      console.log(
        `R8 kill -9 while opening ${INCIDENTS} incidents of ${ENTRIES} updates, ${ROUNDS} rounds: ${JSON.stringify({ ...outcomes, roundMs: span })}`,
      );
    },
    timeout,
  );
});
