// Where the cores go during an `up`, ours and the no-op peer of the scale bench: each side's
// first `up` of N incidents (and, with --scenario no-change, the `up` after it) through the
// plain CLI (the plain-CLI apply line of docs/provider-and-program.md), with the CPU time of every process of the run sampled
// from /proc: the Pulumi CLI (the engine), the Node.js language host, the program, the dynamic
// provider plugin, and this process (the emulator answering the requests). Prints each kind's
// CPU, the cores busy on average (2 here), and the cores busy while the provider plugin works
// (the steps), with --timeline a row per sample. Not a benchmark (one run, no medians): the
// map behind `bench/scale.bench.mjs`'s ratios.
//
//   npm run build && npx node bench/cpu-timeline.mjs [--incidents 1000] [--latency 0]
//     [--scenario first|no-change] [--interval 500] [--timeline]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openPlainStack } from "./support/plain-stack.mjs";
import { cpuMsOf } from "./support/proc-cpu.mjs";
import { saveResult } from "./support/results.mjs";
import {
  NOOP_PROGRAM,
  repoRoot,
  scaleSeed,
  scaleStackConfig,
  writeScaleDefinitions,
  writeScaleProject,
} from "./support/scale-project.mjs";

const require = createRequire(import.meta.url);
const { startEmulator } = require(path.join(repoRoot, "dist", "src", "emulator"));
const { resolveEngine } = require(path.join(repoRoot, "dist", "src", "engine"));

const { values } = parseArgs({
  options: {
    incidents: { type: "string", default: "1000" },
    latency: { type: "string", default: "0" },
    scenario: { type: "string", default: "first" },
    interval: { type: "string", default: "500" },
    timeline: { type: "boolean", default: false },
  },
});
if (!["first", "no-change"].includes(values.scenario)) {
  throw new Error(`--scenario is first or no-change, not ${values.scenario}`);
}
const incidents = Number(values.incidents);
const intervalMs = Number(values.interval);
const KINDS = ["cli", "host", "program", "plugin", "emulator"];
const work = mkdtempSync(path.join(tmpdir(), "incident-sync-cpu-timeline-"));
mkdirSync(path.join(work, "state"));
const engine = await resolveEngine();

/** Which process of a run a command line is, if any. */
function kindOf(pid, commandLine) {
  if (pid === process.pid) return "emulator";
  if (commandLine.includes("cmd/dynamic-provider")) return "plugin";
  if (commandLine.includes("cmd/run")) return "program";
  if (commandLine.includes("pulumi-language-nodejs")) return "host";
  const program = commandLine.split("\0")[0] ?? "";
  return path.basename(program) === "pulumi" ? "cli" : undefined;
}

/** CPU ms so far by kind, over the live processes (and this one). */
function cpuByKind() {
  const sums = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const kind = kindOf(Number(entry), readFileSync(`/proc/${entry}/cmdline`, "utf8"));
      if (!kind) continue;
      sums[kind] += cpuMsOf(Number(entry)).own;
    } catch {
      // Gone meanwhile.
    }
  }
  return sums;
}

/**
 * Samples every `intervalMs`; returns the rows (CPU ms of each kind in each interval). A
 * process's CPU is counted while it lives: the last interval of one that exits is lost, at
 * most `intervalMs` of it.
 */
function sampleCpu() {
  const rows = [];
  const started = performance.now();
  let last = cpuByKind();
  const timer = setInterval(() => {
    const now = cpuByKind();
    const row = { atS: (performance.now() - started) / 1000 };
    for (const kind of KINDS) row[kind] = Math.max(0, now[kind] - last[kind]);
    rows.push(row);
    last = now;
  }, intervalMs);
  return () => {
    clearInterval(timer);
    return rows;
  };
}

async function measure(side, program) {
  const project = writeScaleProject(
    path.join(work, side),
    program ? { name: "incident-sync-noop", program } : {},
  );
  writeScaleDefinitions(project, incidents, { variant: 0, changed: 0 });
  const emulator = await startEmulator({ port: 0, seed: scaleSeed(incidents) });
  emulator.emulator.control.setFaults({ latencyMs: Number(values.latency) });
  try {
    const stack = await openPlainStack({
      engine,
      home: path.join(work, "home"),
      project,
      stackName: side,
      backend: `file://${path.join(work, "state")}`,
      config: scaleStackConfig(emulator.url),
      skipCheckpoints: true,
    });
    if (values.scenario === "no-change") {
      const first = await stack.up();
      if (!first.ok) throw new Error(`${side}: first up failed:\n${first.stderr}`);
    }
    const stop = sampleCpu();
    const started = performance.now();
    const result = await stack.up();
    const wallS = (performance.now() - started) / 1000;
    const rows = stop();
    if (!result.ok) throw new Error(`${side}: ${values.scenario} up failed:\n${result.stderr}`);
    const total = Object.fromEntries(
      KINDS.map((kind) => [kind, rows.reduce((sum, row) => sum + row[kind], 0) / 1000]),
    );
    const busy = (selected) =>
      selected.reduce((sum, row) => sum + KINDS.reduce((cpu, kind) => cpu + row[kind], 0), 0) /
      (selected.length * intervalMs);
    // The steps: from the first to the last sample in which the provider plugin ran.
    const active = rows.map((row) => row.plugin > 0);
    const from = active.indexOf(true);
    const to = active.lastIndexOf(true);
    const steps = from === -1 ? [] : rows.slice(from, to + 1);
    return {
      side,
      wallS,
      cpuS: total,
      busyCores: busy(rows),
      steps: {
        fromS: steps[0]?.atS ?? 0,
        toS: steps.at(-1)?.atS ?? 0,
        busyCores: steps.length ? busy(steps) : 0,
      },
      rows,
    };
  } finally {
    await emulator.close();
  }
}

try {
  const runs = [await measure("ours"), await measure("peer", NOOP_PROGRAM)];
  console.log(
    `${values.scenario === "first" ? "First" : "No-change"} up of ${incidents}, ${values.latency} ms of API latency, plain CLI, sampled every ${intervalMs} ms`,
  );
  console.log(
    `| side | wall s | ${KINDS.map((kind) => `${kind} CPU s`).join(" | ")} | all CPU s | cores busy | steps (plugin at work) | cores busy in the steps |`,
  );
  console.log(
    `| --- | ${Array(KINDS.length + 5)
      .fill("---:")
      .join(" | ")} |`,
  );
  for (const run of runs) {
    const all = KINDS.reduce((sum, kind) => sum + run.cpuS[kind], 0);
    console.log(
      `| ${run.side} | ${run.wallS.toFixed(2)} | ${KINDS.map((kind) => run.cpuS[kind].toFixed(2)).join(" | ")} | ${all.toFixed(2)} | ${run.busyCores.toFixed(2)} | ${run.steps.fromS.toFixed(1)}–${run.steps.toS.toFixed(1)} s | ${run.steps.busyCores.toFixed(2)} |`,
    );
  }
  if (values.timeline) {
    for (const run of runs) {
      console.log(`\n${run.side}: CPU % of one core in each interval`);
      console.log(`| at s | ${KINDS.join(" | ")} |`);
      for (const row of run.rows) {
        const percent = (kind) => Math.round((100 * row[kind]) / intervalMs);
        console.log(`| ${row.atS.toFixed(1)} | ${KINDS.map(percent).join(" | ")} |`);
      }
    }
  }
  await saveResult("cpu-timeline", {
    incidents,
    latencyMs: Number(values.latency),
    scenario: values.scenario,
    runs: runs.map(({ rows: _rows, ...run }) => run),
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
