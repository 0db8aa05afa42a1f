import { defineConfig } from "vitest/config";

/**
 * `npm run mutation` (stryker.config.json): only the unit tests that drive the never-twice core
 * (the step machine and the rules it calls), so each mutant runs a few seconds of tests.
 */
export default defineConfig({
  test: {
    include: [
      "test/incident/machine.test.ts",
      "test/incident/never-twice.property.test.ts",
      "test/incident/entries.test.ts",
      "test/incident/decisions.test.ts",
      "test/incident/page-change.test.ts",
      "test/incident/rules.test.ts",
      "test/incident/held-writes.test.ts",
      "test/incident/openings.test.ts",
      "test/incident/entry-rules.test.ts",
      "test/incident/machine-entries.test.ts",
      "test/incident/machine-removal.test.ts",
      "test/incident/machine-reads.test.ts",
      "test/incident/machine-opening.test.ts",
      "test/incident/machine-failures.test.ts",
      "test/incident/machine-search.test.ts",
      "test/mutation/**/*.test.ts",
    ],
    testTimeout: 30_000,
    expect: { requireAssertions: true },
    pool: "threads",
    isolate: false,
  },
});
