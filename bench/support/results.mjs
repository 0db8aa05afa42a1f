import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "results");

/**
 * Keeps a benchmark's result as `bench/results/<name>.json`, the raw figures BENCHMARKS.md
 * points to, in one place and one form for every benchmark.
 */
export async function saveResult(name, result) {
  await mkdir(RESULTS, { recursive: true });
  await writeFile(path.join(RESULTS, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
}
