#!/usr/bin/env node
// `npm run lint:workflows`: actionlint on the pipeline kit's workflows. actionlint is a Go
// program, served by the Go module proxy: `go run` builds it once (into Go's cache) at a pinned
// version. Go is INCIDENT_SYNC_GO, else `go` on PATH, else /usr/local/go/bin/go.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ACTIONLINT = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const kit = join(root, "examples", "github", "workflows");

const onPath = (name) =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));
const go =
  process.env.INCIDENT_SYNC_GO ??
  onPath("go") ??
  (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined);
if (!go) {
  process.stderr.write(
    "lint:workflows: Go is needed to run actionlint (https://go.dev/dl/); set INCIDENT_SYNC_GO or put go on PATH.\n",
  );
  process.exit(1);
}
const files = readdirSync(kit)
  .filter((name) => name.endsWith(".yml"))
  .map((name) => join(kit, name));
const result = spawnSync(go, ["run", ACTIONLINT, ...files], { stdio: "inherit", cwd: root });
if (result.status === 0)
  process.stdout.write(`actionlint: ${files.length} workflows, no problems.\n`);
process.exit(result.status ?? 1);
