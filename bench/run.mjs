// Runs every benchmark in this folder (`*.bench.mjs`), one after another, each in its own
// Node process so one cannot warm up or slow down the next. Arguments filter by name:
//
//   npm run bench                 # all of them (builds first)
//   node bench/run.mjs emulator   # only bench/emulator.bench.mjs
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((name) => name.endsWith(".bench.mjs"))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();

if (benches.length === 0) {
  console.error(
    `no benchmark matches ${filters.join(", ")}; available: ${readdirSync(dir)
      .filter((n) => n.endsWith(".bench.mjs"))
      .join(", ")}`,
  );
  process.exit(1);
}

const failed = [];
for (const name of benches) {
  console.log(`\n=== ${name}`);
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(dir, name)], { stdio: "inherit" });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) failed.push(name);
  console.log(
    `=== ${name}: ${result.status === 0 ? "done" : `failed (exit ${result.status ?? result.signal})`} in ${seconds} s`,
  );
}
if (failed.length > 0) {
  console.error(`\n${failed.length} benchmark(s) failed: ${failed.join(", ")}`);
  process.exit(1);
}
