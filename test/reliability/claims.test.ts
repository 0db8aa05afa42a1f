import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClaimsStack, scaleId, startClaimsStack } from "../engine/support/claims-stack";

const timeout = 300_000;
const KEPT = 3;
/** The incident the claim-failure cases add to the KEPT. */
const LAST = KEPT;

const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, offset) => from + offset);

/**
 * `incident-sync up` skips per-step checkpoints, so it claims (records) the incidents new to
 * the state before it adopts them: the claims that cannot be recorded (issue 36). A kill among
 * the adoptions, whose removal must resolve all that was adopted (issue 22), is R7 of
 * `npm run reliability` (test/reliability/kill-loop-claims.test.ts), ten rounds of it.
 */
describe("claims on the real engine", () => {
  let stack: ClaimsStack;
  const control = () => stack.sandbox.emulator.emulator.control;

  beforeAll(async () => {
    // No retries, so an injected failure fails a claim at once.
    stack = await startClaimsStack({
      stack: "claims",
      incidents: LAST + 1,
      retries: 0,
      declared: KEPT,
    });
  }, timeout);

  afterAll(async () => {
    await stack?.close();
  });

  it(
    "says they were not adopted, and why, and fails the run",
    async () => {
      stack.declareOnly([...range(0, KEPT), LAST]);
      control().setFaults({ failRate: 1 });
      let run: Awaited<ReturnType<ClaimsStack["up"]>>;
      try {
        run = await stack.up({ args: ["--format", "json"] });
      } finally {
        control().setFaults({});
      }
      expect(run.exitCode).toBe(1);
      const report = JSON.parse(run.stdout) as {
        incidents: { resource: string; action: string; error: string | null }[];
      };
      const added = report.incidents.find((step) => step.resource === scaleId(LAST));
      expect(added?.action).toBe("not adopted");
      // Its own claim's error: why it could not be recorded, and so was not adopted.
      expect(added?.error).toMatch(
        new RegExp(
          `^GET /v1/status-pages/incidents/${scaleId(LAST)}/incident-updates failed: 503 `,
        ),
      );
      expect(stack.adopted(LAST)).toBe(false);
      stack.declare(KEPT);
    },
    timeout,
  );

  it(
    "says none was adopted when the key is refused, naming MONITORING_API_KEY, where the key came from",
    async () => {
      stack.declareOnly([...range(0, KEPT), LAST]);
      const run = await stack.up({ env: { MONITORING_API_KEY: "not-the-key-0123" } });
      stack.declare(KEPT);
      expect(run.exitCode).toBe(1);
      expect(run.stdout).not.toMatch(/\b\d+ adopted\b/);
      expect(run.stdout).toMatch(/Stack claims: up failed \(1 not adopted, 3 unchanged;/);
      // Named as its claim run declared it: its name, then its id.
      const named = `Scale incident ${scaleId(LAST)} (${scaleId(LAST)})`;
      expect(run.stdout).toContain(`  ✗ ${named} not adopted\n`);
      expect(run.stdout).toContain(`✗ ${named}: GET /v1/status-pages/incidents/`);
      expect(run.stdout).toContain(
        "The API key was refused: check MONITORING_API_KEY or --api-key.",
      );
      expect(run.stdout).not.toContain("incident-sync:apiKey");
      expect(`${run.stdout}${run.stderr}`).not.toContain("not-the-key-0123");
    },
    timeout,
  );
});
