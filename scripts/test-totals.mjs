#!/usr/bin/env node
// node scripts/test-totals.mjs [--no-floor] REPORT.json [REPORT.json ...]
//
// Reads vitest's JSON reports (the `json` reporter of vitest.config.mts) and prints the suite's
// totals as one plain line, the last thing CI prints: `tests: N passed, M failed` (with
// `, K skipped` when any). Exit 1 when a report is missing or unreadable, when any test failed,
// or when fewer tests passed than the floor in test/floor.json, so a suite that silently
// lost tests does not pass. `--no-floor` leaves the floor out (for `npm run reliability`,
// whose runs are not the suite).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const reports = args.filter((arg) => arg !== "--no-floor");
const floor = args.includes("--no-floor")
  ? 0
  : JSON.parse(readFileSync(path.join(root, "test", "floor.json"), "utf8")).passed;

/**
 * Files that failed with no failing test in them (a file that did not load, a failing hook):
 * each counts as one failure, so that they are not lost, and a failing test is not counted
 * again for its file and its describe blocks (vitest's `numFailedTestSuites` counts both).
 */
function filesFailedOutsideTests(json) {
  if (!Array.isArray(json.testResults)) return json.numFailedTestSuites ?? 0;
  return json.testResults.filter(
    (file) =>
      file.status === "failed" &&
      !(file.assertionResults ?? []).some((test) => test.status === "failed"),
  ).length;
}

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
if (reports.length === 0) problems.push("no vitest report was given");
for (const report of reports) {
  if (!existsSync(report)) {
    problems.push(`${report} is missing: the test run did not finish`);
    failed += 1;
    continue;
  }
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed += json.numPassedTests ?? 0;
  failed += (json.numFailedTests ?? 0) + filesFailedOutsideTests(json);
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
if (passed < floor) {
  problems.push(`only ${passed} tests passed, fewer than the floor of ${floor} in test/floor.json`);
}
for (const problem of problems) process.stderr.write(`test totals: ${problem}\n`);
process.stdout.write(
  `tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}\n`,
);
process.exitCode = failed > 0 || problems.length > 0 ? 1 : 0;
