#!/usr/bin/env node
// node scripts/test-totals.mjs [--no-floor] [--reliability REPORT.json] SUITE.json [REPORT.json ...]
// node scripts/test-totals.mjs --write-floor SUITE.json                     (npm run floor)
// node scripts/test-totals.mjs --write-floor --reliability REPORT.json      (npm run floor:reliability)
// Files, for the tests of this script: --floor-file, --reliability-floor-file, --lowered-file.
//
// Reads vitest's JSON reports (the `json` reporter of vitest.config.mts) and prints the suite's
// totals as one plain line, the last thing CI prints: `tests: N passed, M failed` (with
// `, K skipped` when any). Exit 1 when a report is missing or unreadable, when any test failed,
// when a test was skipped (or left `todo`) without its own title naming an issue ("… (issue
// 51)", "… #51"; a describe block's title does not count), or when a report held to a floor
// differs from it: the first report, the suite's (`npm test`), from test/floor.json, and the
// `--reliability` report (test/reliability, at either size) from test/floor-reliability.json,
// each the number of tests that pass in each file, so a file deleted, a test lost or a test
// added without its count fails CI. A count goes down only on purpose: a line of
// test/floor-lowered.md names the file, its new count and why, and every such line is printed.
// `--write-floor` records the counts of a run that passed, refusing to lower one without its
// line; `--no-floor` leaves the suite's floor out (for `npm run reliability`, not the suite).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
/** Options that take a value, with their default. */
const VALUED = {
  "--floor-file": path.join(root, "test", "floor.json"),
  "--reliability-floor-file": path.join(root, "test", "floor-reliability.json"),
  "--lowered-file": path.join(root, "test", "floor-lowered.md"),
  "--reliability": undefined,
};
/** @type {Record<string, string | undefined>} */
const option = {};
const reports = [];
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index] ?? "";
  if (arg in VALUED) {
    index += 1;
    option[arg] = args[index] === undefined ? undefined : path.resolve(args[index]);
  } else if (!arg.startsWith("--")) reports.push(arg);
}
const optionValue = (name) => option[name] ?? VALUED[name];
const floorFile = optionValue("--floor-file");
const reliabilityFloorFile = optionValue("--reliability-floor-file");
const loweredFile = optionValue("--lowered-file");
const reliabilityReport = optionValue("--reliability");
const noFloor = args.includes("--no-floor");
const writeFloor = args.includes("--write-floor");

/** A skipped or `todo` test is allowed only when its own title names the issue that tracks it. */
const NAMES_AN_ISSUE = /\bissue\s*#?\d+|#\d+\b/i;
const NOT_RUN = new Set(["skipped", "pending", "todo", "disabled"]);
/** A line of the lowered file: "- `test/x.test.ts` 3: why". */
const LOWERED_LINE = /^- `([^`]+)` (\d+): (\S.*)$/;

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

/**
 * Each failing test of a report, with the first lines of its failure: CI shows only the end of
 * its log, so why a test failed is printed beside the totals, not only far above them.
 */
function failures(json) {
  const firstLines = (text) => text.split("\n").slice(0, 6).join("\n    ");
  const found = [];
  for (const file of json.testResults ?? []) {
    const failing = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failing) {
      const why = firstLines((test.failureMessages ?? []).join("\n"));
      found.push(`failed: ${fileOf(file)}: "${test.fullName ?? test.title}"\n    ${why}`);
    }
    if (file.status === "failed" && failing.length === 0) {
      const why = firstLines(String(file.message ?? ""));
      found.push(`failed: ${fileOf(file)} (outside its tests)\n    ${why}`);
    }
  }
  return found;
}

/** Skipped and `todo` tests whose own title names no issue (a describe block's does not count). */
function unexplainedSkips(json) {
  const found = [];
  for (const file of json.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (NOT_RUN.has(test.status) && !NAMES_AN_ISSUE.test(test.title ?? "")) {
        found.push(`${fileOf(file)}: "${test.fullName ?? test.title}" (${test.status})`);
      }
    }
  }
  return found;
}

/**
 * The lines of the lowered file: each names a file, the count it goes down to, and why. A line
 * that is not of that shape is a problem, not ignored.
 */
function readLowered() {
  const lines = [];
  const problems = [];
  if (!existsSync(loweredFile)) return { lines, problems };
  const name = path.relative(root, loweredFile);
  readFileSync(loweredFile, "utf8")
    .split("\n")
    .forEach((text, index) => {
      if (!text.startsWith("- ")) return;
      const match = LOWERED_LINE.exec(text.trimEnd());
      if (match === null) {
        problems.push(
          `${name}:${index + 1}: a line of the list is "- \`test/file.test.ts\` COUNT: why", not "${text}"`,
        );
      } else lines.push({ file: match[1], count: Number(match[2]), why: match[3], text });
    });
  return { lines, problems };
}

/** Whether a line of the lowered file lets `file` go down to `count`. */
const loweredTo = (lowered, file, count) =>
  lowered.some((line) => line.file === file && line.count === count);

/**
 * How a run's counts differ from its floor, one sentence per file; a count lower than the
 * floor is one only when no line of the lowered file names the file and that count.
 */
function floorProblems(counts, floor, lowered) {
  const problems = [];
  const files = [...new Set([...Object.keys(floor), ...counts.keys()])].sort();
  const unexplained = `, and no line of ${path.relative(root, loweredFile)} lowers it`;
  for (const file of files) {
    const expected = floor[file];
    const passed = counts.get(file) ?? 0;
    if (expected === undefined) {
      if (passed > 0) problems.push(`${file}: ${passed} passed, and the floor has no count for it`);
    } else if (passed < expected && loweredTo(lowered, file, passed)) {
      // Lowered on purpose: the line is printed with the others.
    } else if (!counts.has(file)) {
      problems.push(
        `${file}: did not run (deleted, renamed or left out?), its floor is ${expected}${unexplained} to 0`,
      );
    } else if (passed < expected) {
      problems.push(
        `${file}: ${passed} passed, fewer than its floor of ${expected}${unexplained} to ${passed}`,
      );
    } else if (passed > expected) {
      problems.push(`${file}: ${passed} passed, more than its floor of ${expected}`);
    }
  }
  return problems;
}

/** The floor in `file`: each test file's count. */
const floorIn = (file) => JSON.parse(readFileSync(file, "utf8")).files ?? {};

const reportsRead = [];
const problems = [];
let passed = 0;
let failed = 0;
let skipped = 0;
const all = reliabilityReport === undefined ? reports : [...reports, reliabilityReport];
if (all.length === 0) problems.push("no vitest report was given");
for (const report of all) {
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
  problems.push(...failures(json));
  for (const skip of unexplainedSkips(json)) {
    problems.push(`skipped without naming an issue ("… (issue N)" in its own title): ${skip}`);
  }
}

const lowered = readLowered();
problems.push(...lowered.problems);
/** The runs held to a floor: the suite's (the first report) and the reliability runs'. */
const held = [];
if (!noFloor && reports.length > 0) {
  held.push({ json: reportsRead[0], file: floorFile, rerun: "`npm run floor` after `npm test`" });
}
if (reliabilityReport !== undefined) {
  held.push({
    json: reportsRead.at(-1),
    file: reliabilityFloorFile,
    rerun: "`npm run floor:reliability` after a reliability run",
  });
}

if (writeFloor) {
  if (held.length === 0 || held.some(({ json }) => json === undefined) || failed > 0) {
    process.stderr.write("test totals: the floor is written from a whole run that passed\n");
    process.exit(1);
  }
  const refused = [];
  for (const { json, file } of held) {
    const before = existsSync(file) ? floorIn(file) : {};
    const counts = passesByFile(json);
    for (const [name, count] of Object.entries(before)) {
      const now = counts.get(name) ?? 0;
      if (now < count && !loweredTo(lowered.lines, name, now)) {
        refused.push(
          `${name}: ${now} passed, fewer than its floor of ${count}: lowering it needs the line "- \`${name}\` ${now}: why" in ${path.relative(root, loweredFile)}`,
        );
      }
    }
  }
  if (refused.length > 0 || lowered.problems.length > 0) {
    for (const problem of [...refused, ...lowered.problems]) {
      process.stderr.write(`test totals: ${problem}\n`);
    }
    process.stderr.write("test totals: the floor is not written\n");
    process.exit(1);
  }
  for (const { json, file } of held) {
    const counts = Object.fromEntries(
      [...passesByFile(json)].filter(([, count]) => count > 0).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    writeFileSync(file, `${JSON.stringify({ files: counts }, null, 2)}\n`);
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    process.stdout.write(
      `test totals: ${path.relative(root, file)} is now ${total} tests in ${Object.keys(counts).length} files\n`,
    );
  }
  process.exit(0);
}

for (const { json, file, rerun } of held) {
  if (json === undefined) continue;
  const differences = floorProblems(passesByFile(json), floorIn(file), lowered.lines);
  problems.push(...differences);
  if (differences.length > 0) {
    problems.push(
      `the run differs from the floor in ${path.relative(root, file)}: if that is meant, run ${rerun} and commit it (a count lowered needs its line in ${path.relative(root, loweredFile)})`,
    );
  }
}
// Every count lowered on purpose, so that none goes down unseen.
for (const line of lowered.lines) {
  process.stdout.write(`test totals: floor lowered on purpose: ${line.text.slice(2)}\n`);
}
for (const problem of problems) process.stderr.write(`test totals: ${problem}\n`);
process.stdout.write(
  `tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}\n`,
);
process.exitCode = failed > 0 || problems.length > 0 ? 1 : 0;
