// `pulumi up` of 100 incidents against the emulator, on the real engine (the harness in
// src/engine), with 50 ms of injected latency per request and with none. Each run is a first
// `up` on a fresh backend: 100 adopting PUTs. Next to it, in the same run, the floor:
//   - an `up` of an empty program on a fresh backend (the engine's own fixed cost);
//   - the 100 PUTs alone through the API client at the engine's parallelism (8, the CLI's
//     default `--parallel`).
// Reports the median of each and the ratio up / (empty up + PUTs alone); writes
// bench/results/pulumi-up.json.
//
//   npm run build && node bench/pulumi-up.bench.mjs [--incidents 100] [--runs 3]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist", "src");
const { startEmulator } = require(path.join(dist, "emulator"));
const { openEngineStack, resolveEngine } = require(path.join(dist, "engine"));
const { createClient } = require(path.join(dist, "api"));
const pLimit = require("p-limit").default;

const { values } = parseArgs({
  options: {
    incidents: { type: "string", default: "100" },
    runs: { type: "string", default: "3" },
  },
});
const INCIDENTS = Number(values.incidents);
const RUNS = Number(values.runs);
const ACCOUNT = "acct-bench";
const API_KEY = "bench-key-0123456789";
const ENGINE_PARALLELISM = 8;

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const ids = Array.from({ length: INCIDENTS }, (_, i) => `inc-bench-${String(i).padStart(3, "0")}`);
const seed = {
  accounts: [
    {
      id: ACCOUNT,
      apiKeys: [API_KEY],
      services: [{ id: "svc-bench", name: "Bench service" }],
      incidents: ids.map((id) => ({
        id,
        name: `Seeded ${id}`,
        severity: "MINOR",
        services: ["svc-bench"],
        created_at: "-1h",
      })),
    },
  ],
};

const work = mkdtempSync(path.join(tmpdir(), "incident-sync-bench-up-"));
const definitionsDir = path.join(work, "incidents");
mkdirSync(definitionsDir);
writeFileSync(
  path.join(definitionsDir, "bench.yaml"),
  ids
    .map(
      (id) =>
        `id: ${id}\nname: Benchmark incident ${id}\nseverity: MAJOR\nstatus: INVESTIGATING\nservices: [svc-bench]\n`,
    )
    .join("---\n"),
);

const engine = await resolveEngine();
const emulator = await startEmulator({ port: 0, seed });
let stackCount = 0;

async function freshStack(program) {
  stackCount += 1;
  return openEngineStack({
    stackName: `bench${stackCount}`,
    stateDir: path.join(work, `engine-${stackCount}`),
    passphrase: "bench-passphrase",
    repoRoot: root,
    engine,
    onOutput: false,
    ...(program ? { program } : {}),
    config: {
      "incident-sync:baseUrl": { value: emulator.url },
      "incident-sync:accountId": { value: ACCOUNT },
      "incident-sync:apiKey": { value: API_KEY, secret: true },
      "incident-sync:definitionsDir": { value: definitionsDir },
      // The benchmark measures the engine, not the client-side rate limit.
      "incident-sync:rateLimit": { value: "100000" },
    },
  });
}

async function timeUp(program, expectCreates) {
  const stack = await freshStack(program);
  const started = performance.now();
  const up = await stack.up();
  const ms = performance.now() - started;
  if (up.result !== "succeeded" || (up.changes.create ?? 0) !== expectCreates) {
    throw new Error(`unexpected up: ${up.result} ${JSON.stringify(up.changes)}`);
  }
  return ms;
}

async function timePuts() {
  const client = createClient({
    baseUrl: emulator.url,
    apiKey: API_KEY,
    accountId: ACCOUNT,
    concurrency: ENGINE_PARALLELISM,
    rateLimit: { limit: 100_000, intervalMs: 60_000 },
  });
  const limit = pLimit(ENGINE_PARALLELISM);
  const started = performance.now();
  await Promise.all(
    ids.map((id) =>
      limit(() =>
        client.incidents.update(id, {
          name: `Benchmark incident ${id}`,
          severity: "MAJOR",
          services: [{ id: "svc-bench" }],
          lastUpdateStatus: "INVESTIGATING",
        }),
      ),
    ),
  );
  return performance.now() - started;
}

const results = [];
try {
  for (const latencyMs of [0, 50]) {
    emulator.emulator.control.setFaults({ latencyMs });
    const up = [];
    const empty = [];
    const puts = [];
    // Warm-up: plugin start, module caches.
    await timeUp(undefined, INCIDENTS + 1);
    for (let run = 0; run < RUNS; run++) {
      up.push(await timeUp(undefined, INCIDENTS + 1));
      empty.push(await timeUp(async () => ({}), 1));
      puts.push(await timePuts());
      process.stderr.write(
        `latency ${latencyMs} ms, run ${run + 1}/${RUNS}: up ${(up.at(-1) / 1000).toFixed(2)} s, empty up ${(empty.at(-1) / 1000).toFixed(2)} s, PUTs alone ${(puts.at(-1) / 1000).toFixed(2)} s\n`,
      );
    }
    const floor = median(empty) + median(puts);
    results.push({
      latencyMs,
      incidents: INCIDENTS,
      runs: RUNS,
      upMs: Math.round(median(up)),
      emptyUpMs: Math.round(median(empty)),
      putsAloneMs: Math.round(median(puts)),
      floorMs: Math.round(floor),
      ratio: Number((median(up) / floor).toFixed(2)),
    });
  }
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}

console.table(results);
mkdirSync(path.join(root, "bench", "results"), { recursive: true });
writeFileSync(
  path.join(root, "bench", "results", "pulumi-up.json"),
  `${JSON.stringify({ date: new Date().toISOString(), engineParallelism: ENGINE_PARALLELISM, results }, null, 2)}\n`,
);
