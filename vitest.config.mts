import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The JSON report is what `.ci/run` counts (scripts/test-totals.mjs) and holds each
    // file's duration, so the slowest files are visible.
    reporters: [
      "default",
      ["json", { outputFile: process.env.VITEST_JSON_REPORT ?? ".incident-sync/vitest.json" }],
    ],
  },
});
