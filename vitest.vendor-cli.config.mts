import { defineConfig } from "vitest/config";

/**
 * `npm run vendor-cli` (scripts/vendor-cli.mjs): the vendor's own CLI, installed from the npm
 * registry at a pinned version, against the emulator (test/vendor-cli). Kept out of `npm test`,
 * which needs no package it does not depend on; the script installs it once, then runs these.
 */
export default defineConfig({
  test: {
    include: ["test/vendor-cli/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A test that asserts nothing fails (issue 53): a test emptied to `return;` cannot pass.
    expect: { requireAssertions: true },
  },
});
