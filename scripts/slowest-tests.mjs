#!/usr/bin/env node
// node scripts/slowest-tests.mjs [REPORT.json] [COUNT]
//
// The slowest test files of a vitest JSON report (default .incident-sync/vitest.json, which
// `npm test` writes), as a Markdown table: file, project's tests, seconds. BENCHMARKS.md lists
// the ten slowest from it.
import { readFileSync } from "node:fs";
import path from "node:path";

const [report = ".incident-sync/vitest.json", count = "10"] = process.argv.slice(2);
const json = JSON.parse(readFileSync(report, "utf8"));
const files = json.testResults
  .map((result) => ({
    file: path.relative(process.cwd(), result.name),
    tests: result.assertionResults.length,
    seconds: (result.endTime - result.startTime) / 1000,
  }))
  .sort((a, b) => b.seconds - a.seconds);
const wall = (Math.max(...json.testResults.map((r) => r.endTime)) - json.startTime) / 1000;
console.log(`| file | tests | seconds |\n| --- | ---: | ---: |`);
for (const { file, tests, seconds } of files.slice(0, Number(count))) {
  console.log(`| \`${file}\` | ${tests} | ${seconds.toFixed(1)} |`);
}
console.log(
  `\n${files.length} files, ${json.numTotalTests} tests, ${wall.toFixed(0)} s from start to the last file's end; the files' durations add up to ${files.reduce((sum, f) => sum + f.seconds, 0).toFixed(0)} s.`,
);
