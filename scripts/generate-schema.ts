/**
 * Writes the JSON Schema of incident definitions to `schema/incident.schema.json`.
 * `--check` only compares and exits 1 when the committed file is stale.
 *
 *   npm run schema            # regenerate
 *   npm run schema -- --check # verify, e.g. in CI
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { definitionJsonSchemaText, JSON_SCHEMA_PATH } from "../src/definitions";

async function main(): Promise<void> {
  const root = path.resolve(__dirname, "..", "..");
  const target = path.join(root, JSON_SCHEMA_PATH);
  const expected = definitionJsonSchemaText();
  if (process.argv.includes("--check")) {
    const current = await readFile(target, "utf8").catch(() => "");
    if (current !== expected) {
      process.stderr.write(`${JSON_SCHEMA_PATH} is stale; run: npm run schema\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`${JSON_SCHEMA_PATH} is up to date\n`);
    return;
  }
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, expected);
  process.stdout.write(`wrote ${JSON_SCHEMA_PATH}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
