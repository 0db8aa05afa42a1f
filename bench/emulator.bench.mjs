// Throughput and latency of the emulator over loopback, measured with autocannon, next to
// a peer measured in the same run: Stoplight Prism mocking the emulator's own
// /openapi.json (static examples, no storage). Two operations:
//   - PUT /v1/status-pages/incidents/{id} (validation, SQLite write with synchronous=FULL
//     on a data file, render with updates);
//   - GET /v1/error-groups/checks/{id}?limit=100&page=N over a check with 10,000 groups.
// Each scenario runs `--rounds` times for `--seconds` s; medians are reported.
//
//   npm run build && npx node bench/emulator.bench.mjs [--seconds 3] [--rounds 3] [--connections 10]
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./support/median.mjs";

const require = createRequire(import.meta.url);
const autocannon = require("autocannon");
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "dist", "src", "cli", "main.js");
const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "3" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const GROUPS = 10_000;
const ADMIN = "bench-admin";

function startProcess(command, argv, ready) {
  const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    lines.on("line", (line) => {
      const value = ready(line);
      if (value !== undefined) resolve({ child, value });
    });
    child.once("exit", (code) =>
      reject(new Error(`${command} ${argv.join(" ")} exited ${code}: ${stderr}`)),
    );
  });
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function startEmulator(dataFile) {
  const { child, value } = await startProcess(
    process.execPath,
    [
      cli,
      "emulator",
      "--port",
      "0",
      "--format",
      "json",
      "--admin-token",
      ADMIN,
      ...(dataFile === undefined ? [] : ["--data", dataFile]),
    ],
    (line) => (line.startsWith("{") ? JSON.parse(line) : undefined),
  );
  const response = await fetch(
    `${value.url}/_control/accounts/acct-demo/checks/chk-bench/error-groups`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ count: GROUPS }),
    },
  );
  if (response.status !== 201) throw new Error(`seeding error groups failed: ${response.status}`);
  return { child, url: value.url };
}

async function startPrism(openApiFile) {
  const bin = path.join(
    path.dirname(require.resolve("@stoplight/prism-cli/package.json")),
    "dist",
    "index.js",
  );
  const port = 4300 + Math.floor(Math.random() * 1000);
  // Silent: at the default level Prism logs every request and keeps burning CPU on its log
  // backlog after a run, which would slow whatever is measured next.
  const child = spawn(
    process.execPath,
    [bin, "mock", "-h", "127.0.0.1", "-p", String(port), "-v", "silent", openApiFile],
    { stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}`);
    try {
      await fetch(`${url}/v1/error-groups/ready`, { headers: { authorization: "Bearer x" } });
      return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill("SIGKILL");
  throw new Error("prism did not listen within 30 s");
}

const incidentBody = JSON.stringify({
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  services: [
    { id: "svc-api", name: "Public API", accountId: "acct-demo" },
    { id: "svc-web", name: "Web app", accountId: "acct-demo" },
  ],
  lastUpdateStatus: "MONITORING",
});

const scenarios = [
  {
    name: "PUT incident",
    request: {
      method: "PUT",
      path: "/v1/status-pages/incidents/inc-api-errors",
      headers: { authorization: "Bearer demo-key", "content-type": "application/json" },
      body: incidentBody,
    },
  },
  {
    name: "GET error groups (limit 100, 10,000 groups)",
    request: {
      method: "GET",
      // Pages spread over the whole list, so the OFFSET cost is part of the measure.
      setupRequest: (request) => ({
        ...request,
        path: `/v1/error-groups/checks/chk-bench?limit=100&page=${1 + Math.floor(Math.random() * 100)}`,
      }),
      path: "/v1/error-groups/checks/chk-bench?limit=100&page=1",
      headers: { authorization: "Bearer demo-key" },
    },
  },
];

async function measure(url, scenario) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [scenario.request],
  });
  const ok = result["2xx"];
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${scenario.name} against ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`,
    );
  }
  return {
    rps: ok / (result.duration || SECONDS),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

const dir = await mkdtemp(path.join(tmpdir(), "emulator-bench-"));
const emulator = await startEmulator(path.join(dir, "data.db"));
// The same emulator without a data file: the difference is the cost of durable writes.
const inMemory = await startEmulator(undefined);
const openApiFile = path.join(dir, "openapi.json");
await writeFile(openApiFile, await (await fetch(`${emulator.url}/openapi.json`)).text());
let prism;
let prismProblem;
try {
  prism = await startPrism(openApiFile);
} catch (error) {
  prismProblem = error instanceof Error ? error.message : String(error);
}

const rows = [];
try {
  for (const scenario of scenarios) {
    const runs = { emulator: [], inMemory: [], prism: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.emulator.push(await measure(emulator.url, scenario));
      runs.inMemory.push(await measure(inMemory.url, scenario));
      if (prism) runs.prism.push(await measure(prism.url, scenario));
    }
    const summary = (list) =>
      list.length === 0
        ? null
        : {
            rps: median(list.map((r) => r.rps)),
            p50: median(list.map((r) => r.p50)),
            p99: median(list.map((r) => r.p99)),
          };
    rows.push({
      scenario: scenario.name,
      emulator: summary(runs.emulator),
      inMemory: summary(runs.inMemory),
      prism: summary(runs.prism),
    });
  }
} finally {
  await stop(emulator.child);
  await stop(inMemory.child);
  if (prism) await stop(prism.child);
  await rm(dir, { recursive: true, force: true });
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, errorGroups: GROUPS },
  prism: prism ? "ok" : `not measured: ${prismProblem}`,
  rows,
};
await writeFile(
  path.join(root, "bench", "results", "emulator.json"),
  `${JSON.stringify(results, null, 2)}\n`,
);

const fmt = (n) =>
  n === undefined || n === null
    ? "–"
    : n >= 100
      ? Math.round(n).toLocaleString("en-US")
      : n.toFixed(1);
const cells = (summary) => [fmt(summary?.rps), fmt(summary?.p50), fmt(summary?.p99)].join(" | ");
console.log(
  "| Scenario | Emulator, data file: req/s | p50 ms | p99 ms | Emulator, in memory: req/s | p50 ms | p99 ms | Prism: req/s | p50 ms | p99 ms | Emulator (file) / Prism |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const ratio = row.prism ? `${(row.emulator.rps / row.prism.rps).toFixed(2)}×` : "–";
  console.log(
    `| ${row.scenario} | ${cells(row.emulator)} | ${cells(row.inMemory)} | ${cells(row.prism)} | ${ratio} |`,
  );
}
if (!prism) console.log(`Prism: ${results.prism}`);
