// Cold start of the commands that run in pre-commit hooks and editors: `validate` and
// `plan` of the four definitions in incidents/, each in a fresh Node process, against the
// floor measured in the same run and interleaved with it: `node -e 0`. Wall time is taken
// around the whole process (spawn to exit); peak RSS is the process's own maxRSS, written
// at exit by a preload that every target gets, the floor included.
//
// Node's compile cache (enabled by the CLI) is measured both ways: warm, as every run after
// the first on a machine, and off (NODE_DISABLE_COMPILE_CACHE=1), as the very first run.
// `--baseline DIR` also measures the CLI of another checkout's build (DIR/dist/src/cli/main.js),
// for a before-and-after in one run.
//
//   npm run build && npx node bench/run.mjs cli-startup
//   npx node bench/cli-startup.bench.mjs --runs 21 --baseline /tmp/incident-sync-main
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./support/median.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const cliOf = (checkout) => path.join(checkout, "dist", "src", "cli", "main.js");

/** One cold process: wall time and peak RSS. */
function once(args, env, preload) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ["--require", preload, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    let rss = "";
    let stderr = "";
    child.stdio[3].on("data", (chunk) => {
      rss += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - start;
      // plan exits 0 or 2 here (no changes against HEAD: 0); anything else is a broken target.
      if (code !== 0 && code !== 2) {
        reject(new Error(`${args.join(" ")} exited ${code}: ${stderr}`));
        return;
      }
      resolve({ wallMs, maxRssKiB: Number(rss) });
    });
  });
}

export async function run({ runs = 15, baseline } = {}) {
  const scratch = await mkdtemp(path.join(tmpdir(), "incident-sync-bench-startup-"));
  const preload = path.join(scratch, "max-rss.cjs");
  await writeFile(
    preload,
    'process.on("exit", () => require("node:fs").writeSync(3, String(process.resourceUsage().maxRSS)));\n',
  );
  const cache = path.join(scratch, "compile-cache");
  await mkdir(cache);
  const warm = { NODE_COMPILE_CACHE: cache };
  const off = { NODE_DISABLE_COMPILE_CACHE: "1" };
  const commands = {
    validate: ["validate", "incidents"],
    plan: ["plan", "--base", "HEAD", "incidents"],
  };
  const targets = [{ name: "floor: node -e 0", args: ["-e", "0"], env: {} }];
  for (const [name, args] of Object.entries(commands)) {
    targets.push({ name: `${name}, compile cache warm`, args: [cliOf(root), ...args], env: warm });
    targets.push({ name: `${name}, compile cache off`, args: [cliOf(root), ...args], env: off });
    if (baseline) {
      targets.push({ name: `${name}, baseline`, args: [cliOf(baseline), ...args], env: off });
    }
  }
  try {
    // Warm-up: fills the compile cache and the file system cache for every target.
    for (const target of targets) await once(target.args, target.env, preload);
    const samples = new Map(targets.map((target) => [target.name, []]));
    for (let round = 0; round < runs; round++) {
      for (const target of targets) {
        samples.get(target.name).push(await once(target.args, target.env, preload));
      }
    }
    const floor = samples.get(targets[0].name);
    const floorMs = median(floor.map((s) => s.wallMs));
    const floorRss = median(floor.map((s) => s.maxRssKiB));
    const rows = targets.map((target) => {
      const runsOf = samples.get(target.name);
      const wallMs = median(runsOf.map((s) => s.wallMs));
      const maxRssKiB = median(runsOf.map((s) => s.maxRssKiB));
      return {
        target: target.name,
        wallMs: Math.round(wallMs),
        timeRatio: Number((wallMs / floorMs).toFixed(2)),
        maxRssMiB: Number((maxRssKiB / 1024).toFixed(1)),
        rssRatio: Number((maxRssKiB / floorRss).toFixed(2)),
      };
    });
    console.log(
      `Node ${process.version}, ${runs} interleaved runs per target (medians), load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
    console.log("| Target | Wall | × floor | Peak RSS | × floor |\n|---|---:|---:|---:|---:|");
    for (const row of rows) {
      console.log(
        `| ${row.target} | ${row.wallMs} ms | ${row.timeRatio}× | ${row.maxRssMiB} MiB | ${row.rssRatio}× |`,
      );
    }
    const results = path.join(root, "bench", "results");
    await mkdir(results, { recursive: true });
    await writeFile(
      path.join(results, "cli-startup.json"),
      `${JSON.stringify({ node: process.version, runs, loadavg: loadavg(), rows }, null, 2)}\n`,
    );
    return rows;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { runs: { type: "string" }, baseline: { type: "string" } },
  });
  await run({
    runs: values.runs ? Number(values.runs) : undefined,
    baseline: values.baseline ? path.resolve(values.baseline) : undefined,
  });
}
