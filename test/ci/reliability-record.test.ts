import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  fingerprintOf,
  recordProblems,
  reliabilityInputs,
  reliabilityRuns,
  reliabilityTestFiles,
} from "../../scripts/reliability-record.mjs";
import { reliabilitySize } from "../reliability/size";

const root = join(__dirname, "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "incident-sync-reliability-record-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RUNS = reliabilityRuns({ long: "l.json", setsField: "s.json", behaviours: "b.json" });

/** A repository of `files` (path → text) under the scratch folder. */
function repository(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** A small repository shaped as this one: the runs' configs, scripts and tests. */
const SMALL = {
  "package.json": JSON.stringify({
    name: "incident-sync",
    bin: { "incident-sync": "dist/src/cli/main.js" },
    exports: { "./program": { default: "./dist/index.js" } },
    scripts: {
      reliability: "npm run build && node scripts/reliability.mjs",
      build: "tsc -p tsconfig.json",
      "test:sets-field":
        "PUT=sets-field vitest run --project engine test/engine test/cli/drift.test.ts",
      "test:behaviours": "vitest run test/engine",
    },
  }),
  "package-lock.json": "{}",
  "tsconfig.json": "{}",
  "vitest.config.mts": "export default {};",
  "vitest.reliability.config.mts":
    'export default { test: { include: ["test/reliability/**/*.test.ts"] } };',
  "scripts/reliability.mjs": 'import "./reliability-record.mjs";',
  "scripts/reliability-record.mjs": "",
  "scripts/unused.mjs": "",
  "src/cli/main.ts": 'import("./commands/up");',
  "src/cli/commands/up.ts": 'import { decide } from "../../incident";',
  "src/incident/index.ts": 'export * from "./creation.js";',
  "src/incident/creation.ts": "",
  "src/reports/unused.ts": "",
  "index.ts": 'import "./src/program/stack";',
  "src/program/stack.ts": "",
  "src/engine/index.ts": "",
  "examples/seed/demo.yaml": "",
  "test/reliability/r1.test.ts": 'import { start } from "../support/sandbox";',
  "test/reliability/nested/r2.test.ts": "",
  "test/support/sandbox.ts": `const dist = require(join(__dirname, "..", "..", "dist", "src", "engine"));
const seed = join(packageRoot(), "examples", "seed", "demo.yaml");
require("incident-sync/program");`,
  "test/engine/e.test.ts": "",
  "test/cli/drift.test.ts": "",
  "test/cli/other.test.ts": "",
  "bench/reliability-record.json": "{}",
};

describe("the reliability record", () => {
  it("covers every file the runs execute or read, found from their tests, the package and npm run reliability", () => {
    const dir = repository("small", SMALL);
    expect(reliabilityInputs(dir, RUNS, ["bench/reliability-record.json"])).toEqual([
      "examples/seed/demo.yaml",
      "index.ts",
      "package-lock.json",
      "package.json",
      "scripts/reliability-record.mjs",
      "scripts/reliability.mjs",
      "src/cli/commands/up.ts",
      "src/cli/main.ts",
      "src/engine/index.ts",
      "src/incident/creation.ts",
      "src/incident/index.ts",
      "src/program/stack.ts",
      "test/cli/drift.test.ts",
      "test/engine/e.test.ts",
      "test/reliability/nested/r2.test.ts",
      "test/reliability/r1.test.ts",
      "test/support/sandbox.ts",
      "tsconfig.json",
      "vitest.config.mts",
      "vitest.reliability.config.mts",
    ]);
    expect(reliabilityTestFiles(dir, RUNS)).toEqual([
      "test/cli/drift.test.ts",
      "test/engine/e.test.ts",
      "test/reliability/nested/r2.test.ts",
      "test/reliability/r1.test.ts",
    ]);
  });

  it("takes in a file as soon as a run imports it, with no list to update", () => {
    const dir = repository("grown", {
      ...SMALL,
      "test/support/sandbox.ts": 'import { faults } from "./faults";',
      "test/support/faults.ts": 'export { rules } from "../../src/reports/unused";',
    });
    const inputs = reliabilityInputs(dir, RUNS);
    expect(inputs).toContain("test/support/faults.ts");
    expect(inputs).toContain("src/reports/unused.ts");
  });

  it("takes in what the runs read by name, spawn through npm or copy with the checkout, comments aside", () => {
    const dir = repository("unimported", {
      ...SMALL,
      "package.json": JSON.stringify({
        ...JSON.parse(SMALL["package.json"]),
        scripts: {
          ...JSON.parse(SMALL["package.json"]).scripts,
          start: "node scripts/start.mjs",
          bench: "node bench/run.mjs",
        },
      }),
      "README.md":
        "<!-- test: first-commands -->\n```sh\nnpm start\n```\n\n```sh\nnpm run bench\n```\n",
      ".gitignore": "dist\n",
      ".nvmrc": "24\n",
      "scripts/start.mjs": "",
      "scripts/totals.mjs": "",
      "bench/run.mjs": "",
      "scripts/reliability.mjs": `import "./reliability-record.mjs";
spawnSync("node", ["scripts/totals.mjs"]);
// npm run bench, "scripts/unused.mjs": mentioned, not run`,
      "test/support/sandbox.ts": `const text = readFileSync(join(root, "README.md"), "utf8");
spawnSync("git", ["ls-files", "--exclude-standard"]);`,
    });
    const inputs = reliabilityInputs(dir, RUNS);
    for (const file of [
      ".gitignore",
      ".nvmrc",
      "README.md",
      "scripts/start.mjs",
      "scripts/totals.mjs",
    ]) {
      expect(inputs).toContain(file);
    }
    expect(inputs).not.toContain("bench/run.mjs");
    expect(inputs).not.toContain("scripts/unused.mjs");
  });

  it("runs the reliability files at the size INCIDENT_SYNC_RELIABILITY_SIZE names, full by default, and the record at the full size", () => {
    expect(reliabilitySize({})).toBe("full");
    expect(reliabilitySize({ INCIDENT_SYNC_RELIABILITY_SIZE: "smallest" })).toBe("smallest");
    expect(() => reliabilitySize({ INCIDENT_SYNC_RELIABILITY_SIZE: "small" })).toThrow(
      'INCIDENT_SYNC_RELIABILITY_SIZE is "small": set it to full or smallest, or leave it unset (full)',
    );
    expect(RUNS[0]?.env).toMatchObject({ INCIDENT_SYNC_RELIABILITY_SIZE: "full" });
  });

  it("takes every test file a run's filter selects, as vitest does: test/engine takes test/engine-runner", () => {
    const dir = repository("filtered", { ...SMALL, "test/engine-runner/x.test.ts": "" });
    expect(reliabilityTestFiles(dir, RUNS)).toContain("test/engine-runner/x.test.ts");
  });

  it("holds this repository's rules, emulator, program, engine support, bench support and lock file", () => {
    const inputs = reliabilityInputs(root, RUNS, ["bench/reliability-record.json"]);
    for (const file of [
      "src/incident/creation.ts",
      "src/incident/entries.ts",
      "src/program/stack.ts",
      "src/emulator/app.ts",
      "src/engine/index.ts",
      "src/api/client/rate-budget.ts",
      "providers/incident-operations.ts",
      "test/engine/support/processes.ts",
      "bench/support/scale-project.mjs",
      "test/reliability/service-behaviours.test.ts",
      "scripts/engine.mjs",
      "scripts/moto/requirements.txt",
      "package-lock.json",
      // Issue 53: what main-job spawns (npm start), reads (the README's first command), what
      // decides the record's `ok`, and what a copied checkout is made of.
      "scripts/start.mjs",
      "README.md",
      "scripts/test-totals.mjs",
      "test/floor-reliability.json",
      ".gitignore",
      ".nvmrc",
    ]) {
      expect(inputs).toContain(file);
    }
    expect(inputs).not.toContain("bench/reliability-record.json");
    expect(inputs).not.toContain("test/floor.json");
  });

  it("is current only for a passing run of this code: ok, every run passed, sane totals, the same digest", () => {
    const dir = repository("checked", SMALL);
    const recordFile = join(dir, "bench", "reliability-record.json");
    const now = fingerprintOf(dir, RUNS, recordFile);
    const good = {
      ok: true,
      digest: now.digest,
      runs: RUNS.map(({ name }) => ({ name, ok: true })),
      totals: "tests: 12 passed, 0 failed",
      inputs: now.files,
    };
    expect(recordProblems(dir, RUNS, good, now)).toEqual([]);
    expect(recordProblems(dir, RUNS, { ...good, ok: false }, now)).toEqual([
      "the record is not of a passing run (ok is not true)",
    ]);
    expect(recordProblems(dir, RUNS, { ...good, runs: good.runs.slice(1) }, now)).toEqual([
      "the record does not hold 3 passing runs",
    ]);
    for (const totals of [
      "tests: 3 passed, 0 failed",
      "tests: 12 passed, 1 failed",
      "tests: 12 passed, 0 failed, 1 skipped",
    ]) {
      expect(recordProblems(dir, RUNS, { ...good, totals }, now)).toEqual([
        `its totals ("${totals}") are not the passing tests of 4 test files, with none failed or skipped`,
      ]);
    }
    writeFileSync(join(dir, "src", "incident", "creation.ts"), "// the open-once rule, changed\n");
    rmSync(join(dir, "test", "cli", "drift.test.ts"));
    expect(recordProblems(dir, RUNS, good, fingerprintOf(dir, RUNS, recordFile))).toEqual([
      expect.stringMatching(
        /^the code the runs use changed since \(\w{12} → \w{12}\): src\/incident\/creation\.ts, test\/cli\/drift\.test\.ts \(gone\)$/,
      ),
    ]);
  });
});
