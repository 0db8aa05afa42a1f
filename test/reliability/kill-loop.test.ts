import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InterruptedStack, startInterruptedStack } from "../engine/support/interrupted-stack";
import { mostOf, sized } from "./size";

const timeout = 1_800_000;
const INCIDENTS = sized({ full: 30, smallest: 5 });
const KILLS = sized({ full: 20, smallest: 2 });

/**
 * R5 of the reliability suite (`npm run reliability`): kill -9 of the whole `incident-sync up`
 * process tree at random points, KILLS times in a row on one stack, each run changing every
 * incident. After each kill, one more `up` must converge with nothing lost or duplicated. The
 * reliability suite has one such kill (test/reliability/interruptions.test.ts); this measures how the
 * kills land, and BENCHMARKS.md records the outcomes.
 */
describe("kill -9 at random points, again and again", () => {
  let stack: InterruptedStack;

  beforeAll(async () => {
    stack = await startInterruptedStack("kill-loop", INCIDENTS);
  }, timeout);

  afterAll(async () => {
    await stack?.close();
  });

  it(
    `converges in one more up after each of ${KILLS} kills of the whole up process tree`,
    async () => {
      const outcomes = { killedWhileEngineRan: 0, killedBeforeEngine: 0, finishedBeforeKill: 0 };
      for (let variant = 1; variant <= KILLS; variant += 1) {
        stack.declare(variant);
        const run = stack.startUp();
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 5_000));
        if (run.exitCode !== null) outcomes.finishedBeforeKill += 1;
        else if (stack.engineRunning()) outcomes.killedWhileEngineRan += 1;
        else outcomes.killedBeforeEngine += 1;
        await stack.killRun(run);
        const next = await stack.up();
        expect(next.exitCode, next.stdout + next.stderr).toBe(0);
        await stack.expectConverged(variant);
      }
      // Most kills must land while the engine works, or the run proves little.
      expect(outcomes.killedWhileEngineRan).toBeGreaterThanOrEqual(mostOf(KILLS));
      console.log(`R5 kill -9 outcomes over ${KILLS} runs: ${JSON.stringify(outcomes)}`);
    },
    timeout,
  );
});
