#!/usr/bin/env node
// node scripts/test-totals.mjs [--no-floor] [--floor-file FILE] SUITE.json [REPORT.json ...]
// node scripts/test-totals.mjs --write-floor [--floor-file FILE] SUITE.json   (npm run floor)
//
// Reads vitest's JSON reports (the `json` reporter of vitest.config.mts) and prints the suite's
// totals as one plain line, the last thing CI prints: `tests: N passed, M failed` (with
// `, K skipped` when any). Exit 1 when a report is missing or unreadable, when any test failed,
// when a test was skipped (or left `todo`) without naming an issue in its title ("… (issue
// 51)"), or when the first report, the suite's (`npm test`), differs from the floor in
// test/floor.json: the number of tests that pass in each file, so a file deleted, a test lost
// or a test added without its count fails CI. `--write-floor` records the suite's counts there
// (run it after `npm test`); `--no-floor` leaves the floor out (for `npm run reliability`,
// whose runs are not the suite).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const floorFileAt = args.indexOf("--floor-file");
const floorFile =
  floorFileAt === -1 ? path.join(root, "test", "floor.json") : path.resolve(args[floorFileAt + 1]);
const reports = args.filter(
  (arg, index) => !arg.startsWith("--") && (floorFileAt === -1 || index !== floorFileAt + 1),
);
const noFloor = args.includes("--no-floor");
const writeFloor = args.includes("--write-floor");

/** A skipped or `todo` test is allowed only when its title names the issue that tracks it. */
const NAMES_AN_ISSUE = /\bissue\s*#?\d+/i;
const NOT_RUN = new Set(["skipped", "pending", "todo", "disabled"]);

/** A report's file, relative to the repository with `/`, as the floor names it. */
function fileOf(result) {
  const relative = path.relative(root, result.name ?? "");
  return relative.split(path.sep).join("/");
}

/** The passing tests of each file of a report. */
function passesByFile(json) {
  const counts = new Map();
  for (const file of json.testResults ?? []) {
    const passed = (file.assertionResults ?? []).filter((test) => test.status === "passed").length;
    counts.set(fileOf(file), (counts.get(fileOf(file)) ?? 0) + passed);
  }
  return counts;
}

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

/** Skipped and `todo` tests whose title (or a describe block's) names no issue. */
function unexplainedSkips(json) {
  const found = [];
  for (const file of json.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (NOT_RUN.has(test.status) && !NAMES_AN_ISSUE.test(test.fullName ?? test.title ?? "")) {
        found.push(`${fileOf(file)}: "${test.fullName ?? test.title}" (${test.status})`);
      }
    }
  }
  return found;
}

/** How the suite's counts differ from the floor, one sentence per file. */
function floorProblems(counts, floor) {
  const problems = [];
  const files = [...new Set([...Object.keys(floor), ...counts.keys()])].sort();
  for (const file of files) {
    const expected = floor[file];
    const passed = counts.get(file) ?? 0;
    if (expected === undefined) {
      if (passed > 0) problems.push(`${file}: ${passed} passed, and the floor has no count for it`);
    } else if (!counts.has(file)) {
      problems.push(
        `${file}: did not run (deleted, renamed or left out?), its floor is ${expected}`,
      );
    } else if (passed < expected) {
      problems.push(`${file}: ${passed} passed, fewer than its floor of ${expected}`);
    } else if (passed > expected) {
      problems.push(`${file}: ${passed} passed, more than its floor of ${expected}`);
    }
  }
  return problems;
}

const reportsRead = [];
const problems = [];
let passed = 0;
let failed = 0;
let skipped = 0;
if (reports.length === 0) problems.push("no vitest report was given");
for (const report of reports) {
  if (!existsSync(report)) {
    problems.push(`${report} is missing: the test run did not finish`);
    failed += 1;
    reportsRead.push(undefined);
    continue;
  }
  const json = JSON.parse(readFileSync(report, "utf8"));
  reportsRead.push(json);
  passed += json.numPassedTests ?? 0;
  failed += (json.numFailedTests ?? 0) + filesFailedOutsideTests(json);
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  for (const skip of unexplainedSkips(json)) {
    problems.push(`skipped without naming an issue ("… (issue N)" in its title): ${skip}`);
  }
}

const suite = reportsRead[0];
if (writeFloor) {
  if (suite === undefined || failed > 0) {
    process.stderr.write("test totals: the floor is written from a whole suite that passed\n");
    process.exit(1);
  }
  const counts = Object.fromEntries([...passesByFile(suite)].sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(floorFile, `${JSON.stringify({ files: counts }, null, 2)}\n`);
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  process.stdout.write(
    `test totals: the floor is now ${total} tests in ${Object.keys(counts).length} files\n`,
  );
  process.exit(0);
}
if (!noFloor && suite !== undefined) {
  const floor = JSON.parse(readFileSync(floorFile, "utf8")).files ?? {};
  const differences = floorProblems(passesByFile(suite), floor);
  for (const difference of differences) problems.push(difference);
  if (differences.length > 0) {
    problems.push(
      `the suite differs from the floor in ${path.relative(root, floorFile)}: if that is meant, run \`npm run floor\` after \`npm test\` and commit it`,
    );
  }
}
for (const problem of problems) process.stderr.write(`test totals: ${problem}\n`);
process.stdout.write(
  `tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}\n`,
);
process.exitCode = failed > 0 || problems.length > 0 ? 1 : 0;
