import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import { resolveEngine } from "../../src/engine";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { plainCliBlock } from "../engine/support/plain-cli-blocks";
import { plainCliEnv } from "../engine/support/plain-cli-env";
import { eventually, killAll, killRun, processesIn } from "../engine/support/processes";
import { shAll, shUntilFailure } from "../engine/support/shell";
import { type HeaderProxy, startHeaderProxy } from "../support/header-proxy";
import { atMostOnce, namesHeldBack } from "./held-back";
import { sized } from "./size";

const timeout = 1_800_000;
/** New incidents each round declares, each of ENTRIES notifying updates. */
const INCIDENTS = sized({ full: 5, smallest: 2 });
const ENTRIES = 3;
/** Rounds, one kill each: odd ones while a create is held, even ones at a random moment. */
const KILLS = sized({ full: 8, smallest: 2 });
/** How long the service holds a create before it makes it, in a held round: the kill's window. */
const HOLD_MS = 3_000;
/** A create request, as it reaches the service. */
const CREATE = /^POST \/v1\/status-pages\/incidents(?:\?|$)/;
/** A write that is not idempotent, as it reaches the service: a create or a post. */
const WRITE = /^POST \/v1\/status-pages\/incidents(?:\/[^/?]+\/incident-updates)?(?:\?|$)/;

/** The definitions of round `round`: INCIDENTS new incidents of ENTRIES updates, each notifying. */
function definitions(round: number): string {
  return Array.from({ length: INCIDENTS }, (_, index) => {
    const name = `Round ${round} incident ${index}`;
    return [
      `resource: r${round}-i${index}`,
      `name: ${name}`,
      "severity: MAJOR",
      "services: [svc-scale-a]",
      "updates:",
      ...["INVESTIGATING", "IDENTIFIED", "RESOLVED"]
        .slice(0, ENTRIES)
        .flatMap((status, entry) => [
          `  - status: ${status}`,
          `    message: ${name}, update ${entry + 1}.`,
          "    notify: true",
        ]),
    ].join("\n");
  }).join("\n---\n");
}

/**
 * R10 of the reliability suite (`npm run reliability`, issue 53): the apply line of
 * docs/provider-and-program.md, the plain `pulumi up` pipelines run, with checkpoints skipped,
 * killed with kill -9 while it opens new incidents. Odd rounds kill it between a create and
 * its checkpoint: the service holds the create HOLD_MS, the kill lands once the request has
 * reached it, and the service makes the incident after the run is gone, so nothing records
 * it. Even rounds kill it at a random moment: mostly once a random number of its creates and
 * posts have reached the service, else at a random time. Then the README's after-a-kill block (`pulumi
 * cancel`, then the apply line) must leave each incident once, each update once, and each
 * update notified once: the next run finds what the killed one opened rather than opening it
 * again. A kill between a write's intent and its send holds that write back for its window
 * (issue 54): that run fails naming it, and nothing is made or told twice all the same.
 */
describe("kill -9 of the plain pulumi up while it opens incidents", () => {
  let sandbox: EmulatorSandbox;
  let proxy: HeaderProxy;
  let project: string;
  let env: Record<string, string>;

  const control = () => sandbox.emulator.emulator.control;
  const count = (sql: string, ...params: string[]) =>
    Number((sandbox.db.prepare(sql).get(...params) as { n: number }).n);
  /** What the account holds of round `round`: its incidents, their updates, the notifications. */
  const heldOf = (round: number) => {
    const named = `Round ${round} incident %`;
    const of = "SELECT id FROM incidents WHERE account_id = ? AND name LIKE ?";
    return {
      incidents: count(`SELECT COUNT(*) AS n FROM (${of})`, SCALE_ACCOUNT, named),
      updates: count(
        `SELECT COUNT(*) AS n FROM incident_updates WHERE account_id = ? AND incident_id IN (${of})`,
        SCALE_ACCOUNT,
        SCALE_ACCOUNT,
        named,
      ),
      notifications: count(
        `SELECT COUNT(*) AS n FROM notifications WHERE account_id = ? AND incident_id IN (${of})`,
        SCALE_ACCOUNT,
        SCALE_ACCOUNT,
        named,
      ),
      notifiedTwice: count(
        "SELECT COUNT(*) AS n FROM (SELECT update_id FROM notifications WHERE account_id = ? GROUP BY update_id HAVING COUNT(*) > 1)",
        SCALE_ACCOUNT,
      ),
    };
  };
  const creates = () => proxy.requests.filter((request) => CREATE.test(request)).length;
  const writes = () => proxy.requests.filter((request) => WRITE.test(request)).length;
  /** The README's apply line, in the background, as a pipeline runs it. */
  const startUp = (): ChildProcess => {
    const line = plainCliBlock("apply").find((command) => command.includes("pulumi up"));
    if (!line) throw new Error("the plain-CLI apply block has no pulumi up");
    return spawn("bash", ["-c", line], { cwd: project, env, stdio: "ignore" });
  };

  beforeAll(async () => {
    const engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("kill-plain-up", {
      accounts: [
        {
          id: SCALE_ACCOUNT,
          apiKeys: [SCALE_API_KEY],
          services: [{ id: "svc-scale-a", name: "Scale A" }],
        },
      ],
    });
    // Between the runs and the service, to see a create arrive before the service answers it.
    proxy = await startHeaderProxy(sandbox.emulator.url, "x-unused", "x-unused");
    project = writeScaleProject(join(sandbox.root, "project"));
    writeFileSync(join(project, "incidents", "services.yaml"), "svc-scale-a: Scale A\n");
    env = plainCliEnv(engine, join(sandbox.root, "home"), {
      PULUMI_CONFIG_PASSPHRASE: "kill-plain-up-passphrase",
    });
    const setup = await shAll(
      [
        'mkdir -p ~/.pulumi-state && pulumi login "file://$HOME/.pulumi-state"',
        "pulumi stack init prod",
        `pulumi config set incident-sync:baseUrl ${proxy.url}`,
        `pulumi config set incident-sync:accountId ${SCALE_ACCOUNT}`,
        `printf '%s' ${SCALE_API_KEY} | pulumi config set --secret incident-sync:apiKey`,
      ],
      project,
      env,
    );
    expect(setup.at(-1)?.code, setup.at(-1)?.output).toBe(0);
  }, timeout);

  afterAll(async () => {
    killAll(processesIn(project ?? "/nonexistent"));
    await proxy?.close();
    await sandbox?.close();
  });

  it(
    `opens each incident once and notifies each update once after ${KILLS} kills, between a create and its checkpoint and at random`,
    async () => {
      const outcomes = {
        killedInHeldCreate: 0,
        killedAtRandom: 0,
        finishedBeforeKill: 0,
        /** Rounds whose next run stopped on a write held back for its window. */
        heldBack: 0,
        /** Per kill: the creates and posts of its round that had reached the service. */
        writesAtKill: [] as number[],
        /** Per kill: the incidents of its round the service holds once the run is gone. */
        openedBeforeKill: [] as number[],
      };
      for (let round = 1; round <= KILLS; round += 1) {
        writeFileSync(join(project, "incidents", "open.yaml"), definitions(round));
        const held = round % 2 === 1;
        control().setBehaviour({ createDelayMs: held ? HOLD_MS : 0 });
        const before = creates();
        const wrote = writes();
        const run = startUp();
        if (held) {
          // Killed once a create has reached the service, before it makes it and answers.
          const seen = await eventually(() => creates() > before || run.exitCode !== null, 120_000);
          expect(seen).toBe(true);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * (HOLD_MS / 2)));
        } else if (Math.random() < 0.8) {
          // Among the writes: once the k-th create or post has reached the service.
          const target = 1 + Math.floor(Math.random() * INCIDENTS * ENTRIES);
          await eventually(() => writes() - wrote >= target || run.exitCode !== null, 120_000, 5);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 6_000));
        }
        if (run.exitCode !== null) outcomes.finishedBeforeKill += 1;
        else if (held) outcomes.killedInHeldCreate += 1;
        else outcomes.killedAtRandom += 1;
        await killRun(run, project);
        outcomes.writesAtKill.push(writes() - wrote);
        // The held create is made after the run is gone: the next run reads after it is.
        const sent = creates() - before;
        expect(
          await eventually(() => heldOf(round).incidents >= Math.min(sent, INCIDENTS), 30_000),
        ).toBe(true);
        outcomes.openedBeforeKill.push(heldOf(round).incidents);
        control().setBehaviour({ createDelayMs: 0 });

        // The README's block after a killed run, word for word.
        // It may stop at `pulumi up`, on a write held back for its window: run on, as a
        // pipeline's next run would.
        const block = plainCliBlock("after-a-kill");
        const after = await shUntilFailure(block, project, env);
        const last = after.at(-1);
        expect(after.length, `round ${round}: ${last?.output}`).toBe(block.length);
        const made = heldOf(round);
        // Nothing is made or told twice, whatever the kill hit.
        expect(atMostOnce(made), `round ${round}: ${last?.output}`).toBe(true);
        expect(made.incidents).toBeLessThanOrEqual(INCIDENTS);
        if (last?.code === 0) {
          expect(made, `round ${round}`).toEqual({
            incidents: INCIDENTS,
            updates: INCIDENTS * ENTRIES,
            notifications: INCIDENTS * ENTRIES,
            notifiedTwice: 0,
          });
        } else {
          // A kill between a write's intent and its send: held back for its window, as designed.
          expect(namesHeldBack(last?.output ?? ""), last?.output).toBe(true);
          outcomes.heldBack += 1;
        }
      }
      console.log(
        `R10 kill -9 of plain pulumi up over ${KILLS} rounds of ${INCIDENTS} new incidents: ${JSON.stringify(outcomes)}`,
      );
      // Every held round killed its run inside a create: a run ends only once its creates are
      // answered, HOLD_MS after they arrive, and the kill comes sooner.
      expect(outcomes.killedInHeldCreate).toBe(Math.ceil(KILLS / 2));
    },
    timeout,
  );
});
