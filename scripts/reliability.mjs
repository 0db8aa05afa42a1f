#!/usr/bin/env node
// npm run reliability            # the long runs, then the record in bench/reliability-record.json
// node scripts/reliability.mjs --check
//
// The reliability runs that are too long for `npm test`, measured rather than repeated:
//   1. R1, R5 to R10 (vitest.reliability.config.mts): 100 incidents converging in one
//      `up` through injected faults, 20 kill -9s of `incident-sync up` at random points, 12 of
//      the plain `pulumi up` of docs/provider-and-program.md with checkpoints skipped and the
//      state on S3 (moto), 10 rounds of new incidents claimed under faults and killed, whose
//      removal must resolve all that was adopted, 20 kill -9s while `incident-sync up`
//      opens 50 incidents of 3 notifying updates, and `up --rate-limit 24` with a report beside
//      it through a window of 24 per 60 s answering 429 without Retry-After (more than the
//      window allows unless they share one budget), and a PUT that ignores the status, 8 kill
//      -9s of the plain `pulumi up` while it opens incidents (R10: half of them between a create
//      and its checkpoint, the service holding the create); and the
//      engine's faults: kills and SIGTERM, a deadline, two stacks at once, a create carried out
//      after its timeout, a held create and a held post killed and run again at once (10
//      rounds each), claims that fail, 0.1's state once its checkout is gone, and the
//      PostgreSQL and S3 backends;
//   2. the engine tests and the drift and report tests again against an emulator whose PUT only
//      sets lastUpdateStatus (`npm run test:sets-field`; `npm test` covers both PUT behaviours
//      in process, and test/reliability/put-status.test.ts on the engine);
//   3. the same again against an emulator that lists events and updates oldest first, enforces
//      600 requests per 60 s answering 429 without Retry-After, answers [] for an unknown check,
//      requires the account header and re-dates an update whose PUT gives no date
//      (`npm run test:behaviours`).
// The first run is at the full sizes (INCIDENT_SYNC_RELIABILITY_SIZE=full, test/reliability/size.ts);
// `.ci/run` runs the same files at the smallest size whenever this record covers the code.
// It prints each run's figures and the totals line, and writes them to
// bench/reliability-record.json with a digest of every file the runs execute or read
// (scripts/reliability-record.mjs computes them from the runs: their tests, what those import
// and spawn, the package, the scripts, package-lock.json). `--check` says whether that
// record is a passing run of the code as it is: `.ci/run` runs this script whenever it is not,
// so a change to that code is measured.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { fingerprintOf, recordProblems, reliabilityRuns } from "./reliability-record.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const recordFile = path.join(root, "bench", "reliability-record.json");
const reports = {
  long: path.join(root, ".incident-sync", "vitest-reliability.json"),
  setsField: path.join(root, ".incident-sync", "vitest-sets-field.json"),
  behaviours: path.join(root, ".incident-sync", "vitest-behaviours.json"),
};
const RUNS = reliabilityRuns(reports);
const fingerprint = () => fingerprintOf(root, RUNS, recordFile);

if (process.argv.includes("--check")) {
  const record = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, "utf8")) : undefined;
  const now = fingerprint();
  const problems = recordProblems(root, RUNS, record, now);
  if (problems.length === 0) {
    console.log(
      `reliability: the record of ${record.date} covers this code (${now.digest.slice(0, 12)}, ${Object.keys(now.files).length} files)`,
    );
    process.exit(0);
  }
  for (const problem of problems) console.log(`reliability: ${problem}`);
  console.log("reliability: run npm run reliability");
  process.exit(1);
}

/** Runs a command, passing its output through, and returns its exit code and output. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

mkdirSync(path.dirname(reports.long), { recursive: true });
// The code measured is the code as the runs start.
const { digest, files } = fingerprint();
const started = Date.now();
const runs = [];
for (const { name, command, args, env } of RUNS) {
  console.log(`\n=== reliability: ${name}`);
  const begun = Date.now();
  const result = await run(command, args, env);
  runs.push({
    name,
    code: result.code,
    seconds: Math.round((Date.now() - begun) / 1000),
    output: result.output,
  });
}

const line = (pattern) =>
  runs
    .map((entry) => stripVTControlCharacters(entry.output).match(pattern)?.[0])
    .find((found) => found !== undefined) ?? null;
const totals = spawnSync(
  process.execPath,
  // The suite's floor left out; test/reliability's held to test/floor-reliability.json.
  [
    "scripts/test-totals.mjs",
    "--no-floor",
    "--reliability",
    reports.long,
    reports.setsField,
    reports.behaviours,
  ],
  {
    cwd: root,
    encoding: "utf8",
  },
);
const ok = runs.every((entry) => entry.code === 0) && totals.status === 0;
// Its last line is the totals; any before it are the floor's counts lowered on purpose.
const totalsLines = totals.stdout.trim().split("\n");
const record = {
  ok,
  digest,
  date: new Date().toISOString(),
  command: "npm run reliability",
  cores: availableParallelism(),
  seconds: Math.round((Date.now() - started) / 1000),
  runs: runs.map(({ name, code, seconds }) => ({ name, ok: code === 0, seconds })),
  r1: line(/R1 requests at the emulator: .*/),
  r5: line(/R5 kill -9 outcomes over .*/),
  r6: line(/R6 kill -9 on S3 over .*/),
  r7: line(/R7 claim faults and kill -9 over .*/),
  r8: line(/R8 kill -9 while opening .*/),
  r9: line(/R9 up --rate-limit \d+ \(first\): .*/),
  r10: line(/R10 kill -9 of plain pulumi up over .*/),
  totals: totalsLines.at(-1) ?? "",
  inputs: files,
};
if (ok) writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
for (const line of totalsLines.slice(0, -1)) console.log(line);
process.stderr.write(totals.stderr);
const { inputs, ...shown } = record;
console.log(
  `\n${JSON.stringify({ ...shown, digest: digest.slice(0, 12), inputs: Object.keys(inputs).length }, null, 2)}`,
);
console.log(ok ? `recorded in ${path.relative(root, recordFile)}` : "not recorded: a run failed");
console.log(record.totals);
process.exitCode = ok ? 0 : 1;
