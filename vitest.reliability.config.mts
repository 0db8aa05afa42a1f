import { defineConfig } from "vitest/config";

/**
 * `npm run reliability` (scripts/reliability.mjs): the long runs, one file at a time so each
 * has the machine to itself and its figures mean something. R1 is 100 incidents through
 * injected faults (test/reliability/chaos.test.ts), R5 the loop of 20 kill -9s
 * (test/reliability/kill-loop.test.ts), R6 the README's plain `pulumi up` with checkpoints
 * skipped and the state on S3, killed 12 times (test/reliability/kill-loop-s3.test.ts), R7 new
 * incidents claimed under faults and killed, 10 rounds (test/reliability/kill-loop-claims.test.ts),
 * R8 20 kill -9s while opening 50 incidents of 3 notifying updates
 * (test/reliability/kill-loop-open.test.ts); R10 the plain `pulumi up` killed while it opens
 * incidents, between a create and its checkpoint and at random (kill-plain-up.test.ts); R9 `incident-sync up` and a report beside it
 * through a rate window answering 429 without Retry-After, and a PUT that ignores the status
 * (test/reliability/service-behaviours.test.ts); and once each, issue 36's claims left out of the
 * apply (claims-left-out.test.ts), the engine under PUT sets-field (put-status.test.ts), and
 * the engine's faults: kills and SIGTERM (interruptions.test.ts), a deadline against a dripping
 * server (deadline.test.ts), two stacks at once and a create carried out after its timeout
 * (never-twice-engine.test.ts), a create and a post held by the service, each killed 0.3 s
 * after it leaves and run again at once, 10 rounds (intent-kills.test.ts), the team backends (team-backends.test.ts), claims that
 * fail under faults or a refused key (claims.test.ts), and 0.1's state from another checkout
 * once its own is gone (legacy-state.test.ts).
 */
export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts"],
    globalSetup: ["test/reliability/global-setup.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 600_000,
    // A test that asserts nothing fails (issue 53): a test emptied to `return;` cannot pass.
    expect: { requireAssertions: true },
    reporters: [
      "default",
      [
        "json",
        { outputFile: process.env.VITEST_JSON_REPORT ?? ".incident-sync/vitest-reliability.json" },
      ],
    ],
  },
});
