// One rate budget per run (issue 37): an `up` of N incidents on the real engine against the
// emulator enforcing the service's documented limit, 600 requests in any 60 s per key, and
// answering the rest 429 without Retry-After (`rateWindow`, src/emulator/behaviour.ts), with the
// stack's default client settings (no raised rate limit). Two paths, as bench/scale.bench.mjs:
//   plain    `PULUMI_SKIP_CHECKPOINTS=true pulumi up --yes --skip-preview` in the project folder
//   engine   `incident-sync up`'s own run of the CLI, its claim run first (src/incident/claim.ts)
// For each, the first `up` (N adoptions, each a PUT: the seed's names differ from the
// definitions') and a no-change `up`: the time, the requests the emulator counted and how many
// it answered 429, and requests per incident. The program and the provider plugin (and the
// claim run's) share one budget, so no request may be answered 429. The peer, in the same run:
// the same `up`s on a stack of its own with the limit lifted and no window (unpaced).
// The budget spends a window's worth at once, so the first `up` at the limit should take the
// windows the limit forces (one for each `limit` requests beyond the first `limit`) plus what
// the unpaced one took: its wall against that is the last column.
//
//   npm run build && npx node bench/rate-window.bench.mjs [--incidents 1000] [--via plain,engine]
//     [--limit 600]   the window's requests per 60 s, and the stack's incident-sync:rateLimit
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openBenchStack } from "./support/bench-stack.mjs";
import { saveResult } from "./support/results.mjs";
import {
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
    incidents: { type: "string", default: "1000" },
    via: { type: "string", default: "plain,engine" },
    limit: { type: "string", default: "600" },
  },
});
const INCIDENTS = Number(values.incidents);
const LIMIT = Number(values.limit);
const WINDOW_S = 60;

const work = mkdtempSync(path.join(tmpdir(), "incident-sync-bench-rate-"));
const engine = await resolveEngine();
const results = [];

/** The scale stack's config with the client's limit set to the window's, as a team would. */
const config = (url, limit) => ({
  ...scaleStackConfig(url),
  "incident-sync:rateLimit": { value: String(limit) },
});

async function open(via, project, stackName, url, limit = LIMIT) {
  const folder = path.join(work, `state-${stackName}`);
  mkdirSync(folder, { recursive: true });
  const stack = await openBenchStack({
    via,
    engine,
    work,
    project,
    stackName,
    backend: `file://${folder}`,
    config: config(url, limit),
    skipCheckpoints: true,
  });
  if (via === "plain") return stack;
  const claim = Array.from({ length: INCIDENTS }, (_, index) => scaleId(index));
  let first = true;
  return {
    // incident-sync up claims the incidents new to the state first: all of them, the first time.
    up: () => {
      const options = first ? { claim } : {};
      first = false;
      return stack.up(options);
    },
    close: () => stack.close(),
  };
}

/** One `up` of `stack` against `emulator`, measured: a row of the table. */
async function measure(via, scenario, stack, emulator, limited = true) {
  emulator.emulator.control.resetStats();
  const started = performance.now();
  const result = await stack.up();
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok) {
    throw new Error(`${via} ${scenario} failed:\n${result.stderr}\n${result.stdout.slice(-3000)}`);
  }
  const stats = emulator.emulator.control.stats();
  return {
    via,
    scenario,
    incidents: INCIDENTS,
    seconds: Number(seconds.toFixed(1)),
    requests: stats.total,
    answered429: stats.byStatus["429"] ?? 0,
    requestsPerIncident: Number((stats.total / INCIDENTS).toFixed(3)),
    byOperation: Object.fromEntries(
      Object.entries(stats.byOperation).map(([operation, counts]) => [operation, counts.total]),
    ),
    // The whole windows the limit makes a run of this many requests wait.
    forcedWindowsS: limited ? Math.floor(Math.max(0, stats.total - 1) / LIMIT) * WINDOW_S : 0,
  };
}

try {
  for (const via of values.via.split(",")) {
    const rows = [];
    // The peer first: the same first up, unpaced, on a stack and an emulator of its own.
    {
      const project = writeScaleProject(path.join(work, `project-${via}-unpaced`));
      writeScaleDefinitions(project, INCIDENTS, { variant: 0, changed: 0 });
      const emulator = await startEmulator({ port: 0, seed: scaleSeed(INCIDENTS) });
      const stack = await open(via, project, `rate-${via}-unpaced`, emulator.url, 60_000);
      try {
        rows.push(await measure(via, "first, unpaced", stack, emulator, false));
        rows.push(await measure(via, "no change, unpaced", stack, emulator, false));
      } finally {
        stack.close();
        await emulator.close();
      }
    }
    const project = writeScaleProject(path.join(work, `project-${via}`));
    writeScaleDefinitions(project, INCIDENTS, { variant: 0, changed: 0 });
    const emulator = await startEmulator({
      port: 0,
      seed: scaleSeed(INCIDENTS),
      behaviour: { rateWindow: { limit: LIMIT, seconds: WINDOW_S } },
    });
    const stack = await open(via, project, `rate-${via}`, emulator.url);
    try {
      for (const scenario of ["first", "no change"]) {
        rows.push(await measure(via, scenario, stack, emulator));
      }
    } finally {
      stack.close();
      await emulator.close();
    }
    const unpaced = rows[0].seconds;
    for (const row of rows) {
      row.overWindowsPlusUnpaced =
        row.scenario === "first"
          ? Number((row.seconds / (row.forcedWindowsS + unpaced)).toFixed(2))
          : undefined;
      process.stderr.write(`${JSON.stringify(row)}\n`);
      results.push(row);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.table(results.map(({ byOperation: _operations, ...row }) => row));
await saveResult("rate-window", {
  date: new Date().toISOString(),
  engine: engine.version,
  limit: `${LIMIT}/${WINDOW_S}s`,
  results,
});
