// Loads and validates 10,000 definition files, the size of a large organisation's
// history of incidents. Reports the median of several in-process runs (on one thread
// and on the default number of parser threads), the median of cold CLI runs
// (`incident-sync validate`, what a person waits for) and the peak memory of such a
// run, next to a floor measured in the same run: reading the same files and parsing
// them with `yaml` alone on one thread, without locating or validating anything.
//
//   npm run build && npx node bench/definitions.bench.mjs [--files 10000] [--runs 7]
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { coldValidate } from "./support/cold-validate.mjs";
import { median } from "./support/median.mjs";
import { saveResult } from "./support/results.mjs";

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "dist", "src", "cli", "main.js");

const SEVERITIES = ["CRITICAL", "MAJOR", "MEDIUM", "MINOR"];
const STATUSES = ["INVESTIGATING", "IDENTIFIED", "MONITORING", "RESOLVED"];
const SERVICES = [
  ["svc-api", "Public API"],
  ["svc-checkout", "Checkout"],
  ["svc-web", "Web app"],
  ["svc-db", "Database"],
];

function definitionText(index) {
  const [first, second] = [SERVICES[index % 4], SERVICES[(index + 1) % 4]];
  return `# yaml-language-server: $schema=../schema/incident.schema.json
id: inc-${String(index).padStart(5, "0")}
name: Elevated error rates on ${first[1]} (incident ${index})
severity: ${SEVERITIES[index % 4]}
status: ${STATUSES[(index >> 2) % 4]}
services:
  - id: ${first[0]}
    name: ${first[1]}
  - ${second[0]}
duration: ${index % 240}
evidence:
  checks: [chk-api, chk-checkout]
  heartbeats: [hb-nightly-backup]
onRemove: ${index % 2 === 0 ? "release" : "resolve"}
`;
}

async function generate(dir, count) {
  // 100 sub-folders of 100 files: the loader walks folders recursively.
  for (let folder = 0; folder < count / 100; folder++) {
    const sub = path.join(dir, `team-${String(folder).padStart(3, "0")}`);
    await mkdir(sub, { recursive: true });
    await Promise.all(
      Array.from({ length: Math.min(100, count - folder * 100) }, (_, offset) => {
        const index = folder * 100 + offset;
        return writeFile(path.join(sub, `incident-${index}.yaml`), definitionText(index));
      }),
    );
  }
  // The services catalog names the services that definitions list by id alone.
  await writeFile(
    path.join(dir, "services.yaml"),
    SERVICES.map(([id, name]) => `${id}: ${name}\n`).join(""),
  );
}

/** Runs each function once to warm up, then `runs` rounds of each in turn; times per function. */
async function timeInterleaved(runs, fns) {
  for (const fn of fns) await fn();
  const times = fns.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const [index, fn] of fns.entries()) {
      const start = performance.now();
      await fn();
      times[index].push(performance.now() - start);
    }
  }
  return times;
}

async function baselineRss() {
  const { stdout } = await promisify(execFile)(process.execPath, [
    "-e",
    `require(${JSON.stringify(cli.replace("cli/main.js", "definitions/index.js"))}); process.stdout.write(String(process.resourceUsage().maxRSS))`,
  ]);
  return Number(stdout);
}

export async function run({ files = 10_000, runs = 7 } = {}) {
  const { loadDefinitions } = require(path.join(root, "dist", "src", "definitions"));
  const { parseAllDocuments } = require("yaml");
  const dir = await mkdtemp(path.join(tmpdir(), "incident-sync-bench-defs-"));
  try {
    await generate(dir, files);
    const paths = (await loadDefinitions(dir, { threads: 1 })).files;
    let last;
    const cpu = [];
    // Interleaved, so load from other processes on a shared machine hits all three alike.
    const [load, singleThread, floor] = await timeInterleaved(runs, [
      async () => {
        last = await loadDefinitions(dir);
      },
      async () => {
        const before = process.cpuUsage();
        await loadDefinitions(dir, { threads: 1 });
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
      },
      () => {
        for (const file of paths) parseAllDocuments(readFileSync(file, "utf8"));
      },
    ]);
    if (last.problems.length > 0 || last.definitions.length !== files) {
      throw new Error(
        `expected ${files} valid definitions, got ${last.definitions.length} and ${last.problems.length} problems`,
      );
    }
    const cold = [];
    for (let index = 0; index < Math.max(3, Math.ceil(runs / 2)); index++)
      cold.push(await coldValidate(cli, dir));
    if (!cold.every((sample) => sample.valid && sample.definitions === files)) {
      throw new Error("the CLI did not report every generated definition as valid");
    }
    const result = {
      name: "definitions",
      files,
      runs,
      threads: Math.min(availableParallelism(), 8),
      loadMedianMs: median(load),
      loadSingleThreadMedianMs: median(singleThread),
      // CPU time is less sensitive than wall time to other work on a shared machine.
      loadSingleThreadCpuMedianMs: median(cpu.slice(1)),
      floorMedianMs: median(floor),
      ratioToFloor: median(singleThread) / median(floor),
      cliColdMedianMs: median(cold.map((sample) => sample.wallMs)),
      cliPeakRssMiB: Math.max(...cold.map((sample) => sample.maxRssKiB)) / 1024,
      baselineRssMiB: (await baselineRss()) / 1024,
      node: process.version,
      loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
    };
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function report(result) {
  const ms = (value) => `${value.toFixed(0)} ms`;
  return [
    `definitions: load and validate ${result.files} files (${result.runs} runs, medians, ${result.node})`,
    `  load + validate, ${result.threads} threads        ${ms(result.loadMedianMs)}`,
    `  load + validate, 1 thread         ${ms(result.loadSingleThreadMedianMs)} (CPU time ${ms(result.loadSingleThreadCpuMedianMs)})`,
    `  floor: read + yaml parse, 1 thread ${ms(result.floorMedianMs)}  (1-thread load is ${result.ratioToFloor.toFixed(2)}x the floor)`,
    `  cold CLI \`validate\` (wall)      ${ms(result.cliColdMedianMs)}`,
    `  cold CLI peak RSS               ${result.cliPeakRssMiB.toFixed(0)} MiB (Node + modules alone: ${result.baselineRssMiB.toFixed(0)} MiB)`,
    `  machine load average (1, 5, 15 min) at the end: ${result.loadAverage.join(", ")}`,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { files: { type: "string" }, runs: { type: "string" } },
  });
  const result = await run({
    files: Number(values.files ?? 10_000),
    runs: Number(values.runs ?? 7),
  });
  process.stdout.write(`${report(result)}\n`);
  await saveResult("definitions", result);
}

export { report };
