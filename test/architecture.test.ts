import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";

const root = resolve(__dirname, "..");
const CONFIG = join(root, ".dependency-cruiser.cjs");
const DEPCRUISE = join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** dependency-cruiser with the project's rules (what `npm run lint` runs) on `paths` in `cwd`. */
function cruise(cwd: string, paths: string[]): Violation[] {
  const run = spawnSync(
    process.execPath,
    [DEPCRUISE, "--config", CONFIG, "--output-type", "json", ...paths],
    { cwd, encoding: "utf8" },
  );
  if (run.stdout.trim() === "")
    throw new Error(`dependency-cruiser printed nothing:\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

/** A project tree of the given files (path → source) with the tsconfig the rules read. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "incident-sync-layers-"));
  writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "strict": true } }\n');
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }
  made.push(dir);
  return dir;
}
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the layering of ARCHITECTURE.md, as npm run lint checks it", () => {
  test("this project's code has no upward import and no cycle", () => {
    const found = cruise(root, ["src", "providers", "index.ts"]);
    expect(
      found.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`),
    ).toEqual([]);
  });

  test("a planted upward import from the API client to the command line fails, and so does the cycle it makes", () => {
    const dir = tree({
      "src/api/client.ts":
        'import { main } from "../cli/main";\nexport const client = () => main;\n',
      "src/cli/main.ts":
        'import type { client } from "../api/client";\nexport const main = (c?: typeof client) => c;\n',
    });
    const found = cruise(dir, ["src"]).map((violation) => [
      violation.rule.name,
      violation.from,
      violation.to,
    ]);
    expect(found).toContainEqual(["api-is-the-base", "src/api/client.ts", "src/cli/main.ts"]);
    expect(found.map(([rule]) => rule)).toContain("no-circular");
  });

  test("the emulator reaching past the API, the provider reading definitions and the program running the engine fail by name", () => {
    const dir = tree({
      "src/emulator/app.ts": 'import "../incident/rules";\n',
      "src/incident/rules.ts": "export const rule = 1;\n",
      "providers/incident.ts": 'import "../src/definitions/schema";\n',
      "src/definitions/schema.ts": "export const schema = 1;\n",
      "src/program/declare.ts": 'import "../engine/run";\n',
      "src/engine/run.ts": "export const run = 1;\n",
    });
    expect(
      cruise(dir, ["src", "providers"])
        .map((violation) => violation.rule.name)
        .sort(),
    ).toEqual([
      "emulator-shares-only-the-api",
      "provider-is-a-thin-shell",
      "readers-below-the-engine",
    ]);
  });

  test("the client reading the settings catalog, the catalog reading more than the client's defaults, and the settings reading a definition's helper fail by name (issue 43)", () => {
    const dir = tree({
      "src/api/client/options.ts": 'import "../../settings/catalog";\n',
      "src/settings/catalog.ts":
        'import "../api/client/defaults";\nimport "../api/client/options";\n',
      "src/api/client/defaults.ts": "export const CLIENT_DEFAULTS = {};\n",
      "src/settings/stack-config.ts": 'import "../definitions/suggest";\n',
      "src/definitions/suggest.ts": "export const closestMatch = 1;\n",
    });
    expect(
      cruise(dir, ["src"])
        .filter((violation) => violation.rule.name !== "no-circular")
        .map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`)
        .sort(),
    ).toEqual([
      "api-is-the-base: src/api/client/options.ts → src/settings/catalog.ts",
      "catalog-reads-only-the-client-defaults: src/settings/catalog.ts → src/api/client/options.ts",
      "settings-read-no-definition: src/settings/stack-config.ts → src/definitions/suggest.ts",
    ]);
  });

  test("the catalog read by the layers above the client, and the leaves by all, pass", () => {
    const dir = tree({
      "src/settings/catalog.ts": 'import "../api/client/defaults";\n',
      "src/api/client/defaults.ts": "export const CLIENT_DEFAULTS = {};\n",
      "src/definitions/load.ts": 'import "../settings/catalog";\nimport "../suggest";\n',
      "src/incident/record.ts": 'import "../settings/catalog";\n',
      "src/settings/stack-config.ts": 'import "./catalog";\nimport "../suggest";\n',
      "src/suggest.ts": "export const closestMatch = 1;\n",
    });
    expect(cruise(dir, ["src"])).toEqual([]);
  });

  test("imports down the layers pass", () => {
    const dir = tree({
      "src/cli/main.ts": 'import "../engine/run";\n',
      "src/engine/run.ts": 'import "../program/declare";\n',
      "src/program/declare.ts": 'import "../../providers/incident";\n',
      "providers/incident.ts": 'import "../src/incident/rules";\n',
      "src/incident/rules.ts": 'import "../definitions/schema";\n',
      "src/definitions/schema.ts": 'import "../api/client";\n',
      "src/api/client.ts": 'import "../user-error";\n',
      "src/user-error.ts": "export class UserError extends Error {}\n",
    });
    expect(cruise(dir, ["src", "providers"])).toEqual([]);
  });
});
