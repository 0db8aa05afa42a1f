import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Tests that drive Chromium (the HTML reports), each file its own browser. */
const browserTests = ["test/reports/html-browser.test.ts", "test/reports/incident-browser.test.ts"];

/**
 * The engine tests first, the longest of them (as measured, BENCHMARKS.md "The test suite")
 * leading, so that on two workers the long files overlap and the short ones fill in after:
 * vitest would otherwise order a fresh clone's files by size.
 */
const longestFirst = [
  "test/engine/team-safety.test.ts",
  "test/engine/plain-cli.test.ts",
  "test/engine/harness.test.ts",
  "test/package/installed-package.test.ts",
  "test/engine/drift-stack.test.ts",
  "test/engine/main-job.test.ts",
  "test/engine/pipeline-kit-run.test.ts",
  "test/engine/import-then-up.test.ts",
];

class EngineFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const known = longestFirst.findIndex((path) => file.moduleId.endsWith(path));
      if (known !== -1) return known;
      return file.project.name === "engine" ? longestFirst.length : longestFirst.length + 1;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * `npm test`: four projects on the 2 cores the suite is sized for.
 * - unit: in-process tests and tests of the CLI as a child process, in worker threads;
 * - program: the Pulumi program under Pulumi's mocks (test/program), in forked processes;
 * - engine: the real Pulumi engine (test/engine, and test/package: the packed package installed
 *   in a new project), in forked processes, two at a time, started
 *   first because they are the longest;
 * - browser: Chromium, in forked processes beside the unit tests once the engine tests are done.
 * The heavy reliability runs are `npm run reliability` (vitest.reliability.config.mts), and the
 * vendor's own CLI against the emulator `npm run vendor-cli` (vitest.vendor-cli.config.mts).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    // A test that asserts nothing fails (issue 53): a test emptied to `return;` cannot pass.
    expect: { requireAssertions: true },
    sequence: { sequencer: EngineFirst },
    // The JSON report is what `.ci/run` counts (scripts/test-totals.mjs) and holds each
    // file's duration, so the slowest files are visible (`node scripts/slowest-tests.mjs`).
    reporters: [
      "default",
      ["json", { outputFile: process.env.VITEST_JSON_REPORT ?? ".incident-sync/vitest.json" }],
    ],
    projects: [
      {
        extends: true,
        test: {
          name: "engine",
          // The installed package's test runs `up` on the engine too, from a packed tarball.
          include: ["test/engine/**/*.test.ts", "test/package/**/*.test.ts"],
          pool: "forks",
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Pulumi's mocks serialize the dynamic provider with the inspector, which a worker
          // thread does not have ("Trace events are unavailable").
          name: "program",
          include: ["test/program/**/*.test.ts"],
          pool: "forks",
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [
            "test/engine/**",
            "test/package/**",
            "test/program/**",
            "test/reliability/**",
            "test/vendor-cli/**",
            ...browserTests,
          ],
          pool: "threads",
          // One module graph per worker, not per file: these tests keep no state in modules,
          // and re-importing per file cost a third of the project's time (BENCHMARKS.md history).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: browserTests,
          pool: "forks",
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
