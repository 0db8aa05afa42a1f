import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InterruptedStack, startInterruptedStack } from "../engine/support/interrupted-stack";
import { eventually, processesIn } from "../engine/support/processes";

const timeout = 300_000;
const INCIDENTS = 10;

/**
 * What real runners do to a run, one case each: kill -9 of the whole process tree (a
 * cancelled CI job), of the host alone (a lost runner), and SIGTERM. After each, one more
 * `incident-sync up` must converge with nothing lost or duplicated. R5 (kill-loop.test.ts) is
 * the loop of 20 kills at random points.
 */
describe("interrupted runs of incident-sync up", () => {
  let stack: InterruptedStack;

  beforeAll(async () => {
    stack = await startInterruptedStack("interrupt", INCIDENTS);
  }, timeout);

  afterAll(async () => {
    await stack?.close();
  });

  it(
    "converges in one more up after kill -9 of the whole up process tree while pulumi up applies",
    async () => {
      stack.declare(1);
      const run = stack.startUp();
      expect(await eventually(stack.upRunning, 60_000)).toBe(true);
      await stack.killRun(run);
      const next = await stack.up();
      expect(next.exitCode, next.stdout + next.stderr).toBe(0);
      await stack.expectConverged(1);
    },
    timeout,
  );

  it(
    "stops the engine gracefully when the host is killed alone: the engine writes the state and releases the lock, and no plugin is left",
    async () => {
      stack.declare(100);
      const run = stack.startUp();
      // The host dies while the engine applies: the stack is locked and steps are in flight.
      expect(await eventually(stack.upRunning, 60_000)).toBe(true);
      run.kill("SIGKILL");
      expect(await eventually(() => processesIn(stack.project).length === 0, 30_000)).toBe(true);
      expect(stack.locks()).toEqual([]);
      const next = await stack.up();
      expect(next.exitCode, next.stdout + next.stderr).toBe(0);
      expect(next.stderr).not.toContain("stale lock");
      await stack.expectConverged(100);
    },
    timeout,
  );

  it(
    "stops gracefully on SIGTERM: the engine releases the lock and leaves no process behind",
    async () => {
      stack.declare(101);
      const run = stack.startUp();
      // SIGTERM once the engine is applying: the stack is locked and steps are in flight.
      expect(await eventually(stack.upRunning, 60_000)).toBe(true);
      const exited = new Promise<number | null>((resolve) =>
        run.once("exit", (code) => resolve(code)),
      );
      run.kill("SIGTERM");
      expect(await exited).toBe(143);
      expect(await eventually(() => processesIn(stack.project).length === 0, 30_000)).toBe(true);
      expect(await eventually(() => stack.locks().length === 0, 5_000)).toBe(true);
      const next = await stack.up();
      expect(next.exitCode).toBe(0);
      await stack.expectConverged(101);
    },
    timeout,
  );
});
