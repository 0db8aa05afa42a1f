import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClaimsStack, startClaimsStack } from "../engine/support/claims-stack";
import { eventually } from "../engine/support/processes";

const timeout = 300_000;
const FIRST = 3;
const LATER = 5;

/**
 * Issue 36's case, once, in `npm run reliability`: R7 repeats it under random faults and kills,
 * and test/engine-runner/claimed-up.test.ts pins the claims' messages in `npm test`.
 */
describe("incidents whose claim could not be recorded", () => {
  let stack: ClaimsStack;
  const control = () => stack.sandbox.emulator.emulator.control;

  beforeAll(async () => {
    // No retries, so an injected failure fails a claim at once.
    stack = await startClaimsStack({
      stack: "unrecorded",
      incidents: FIRST + LATER,
      retries: 0,
      declared: FIRST,
    });
  }, timeout);

  afterAll(async () => {
    await stack?.close();
  });

  it(
    "are left out of the apply, so a run killed after it adopted others loses nothing",
    async () => {
      stack.declare(FIRST + LATER);
      // Every request fails while the new incidents are claimed.
      control().setFaults({ failRate: 1 });
      let stderr = "";
      const run = stack.startUp((text) => {
        stderr += text;
        // The claims have failed for good: the apply meets a working, slow API.
        if (/Still could not record|applies them unrecorded/.test(stderr)) {
          control().setFaults({ latencyMs: 100, jitterMs: 2_000 });
        }
      });
      const later = Array.from({ length: LATER }, (_, index) => FIRST + index);
      // Killed once the apply adopted one of them, or has run for a while without doing so.
      expect(await eventually(stack.applying, 120_000)).toBe(true);
      await eventually(() => later.some(stack.adopted), 8_000);
      await stack.kill(run);
      control().setFaults({});
      const adoptedBeforeRemoval = later.filter(stack.adopted);

      stack.declare(FIRST);
      const next = await stack.up();
      expect(next.exitCode, next.stdout + next.stderr).toBe(0);
      // The reproduction: whatever the killed run adopted is resolved once its definition goes.
      for (const index of later) {
        if (stack.adopted(index)) expect(stack.status(index)).toBe("RESOLVED");
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
