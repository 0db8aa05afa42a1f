#!/usr/bin/env node
// node scripts/mutation-summary.mjs [REPORT.json] [--survivors]
//
// One line from the JSON report `npm run mutation` writes (default
// .incident-sync/mutation/mutation.json): the score and the mutants by status, as `.ci/run`
// prints it. With --survivors, every mutant that survived or ran under no test, file:line first.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const report = args.find((arg) => !arg.startsWith("--")) ?? ".incident-sync/mutation/mutation.json";
const json = JSON.parse(readFileSync(report, "utf8"));
const counts = {};
const open = [];
for (const [file, { mutants }] of Object.entries(json.files)) {
  for (const mutant of mutants) {
    counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
    if (mutant.status === "Survived" || mutant.status === "NoCoverage") {
      const { line, column } = mutant.location.start;
      open.push(
        `${file}:${line}:${column} ${mutant.status} ${mutant.mutatorName}: ${mutant.replacement}`,
      );
    }
  }
}
const count = (status) => counts[status] ?? 0;
// Stryker's score: killed and timed out over every mutant that ran or could have.
const detected = count("Killed") + count("Timeout");
const valid = detected + count("Survived") + count("NoCoverage");
const score = valid === 0 ? 100 : (100 * detected) / valid;
if (args.includes("--survivors")) for (const line of open.sort()) console.log(line);
console.log(
  `mutation: ${score.toFixed(2)}% (${valid} mutants: ${count("Killed")} killed, ${count("Timeout")} timed out, ${count("Survived")} survived, ${count("NoCoverage")} not covered; ${count("Ignored")} ignored)`,
);
