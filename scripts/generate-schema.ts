/**
 * Writes the JSON Schemas of incident definitions and of the services catalog to `schema/`.
 * `--check` only compares and exits 1 when a committed file is stale.
 *
 *   npm run schema            # regenerate
 *   npm run schema -- --check # verify, e.g. in CI
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { jsonSchemaFiles } from "../src/definitions";

async function main(): Promise<void> {
  const root = path.resolve(__dirname, "..", "..");
  const check = process.argv.includes("--check");
  for (const file of jsonSchemaFiles()) {
    const target = path.join(root, file.path);
    if (check) {
      const current = await readFile(target, "utf8").catch(() => "");
      if (current !== file.text) {
        process.stderr.write(`${file.path} is stale; run: npm run schema\n`);
        process.exitCode = 1;
      } else process.stdout.write(`${file.path} is up to date\n`);
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.text);
    process.stdout.write(`wrote ${file.path}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
