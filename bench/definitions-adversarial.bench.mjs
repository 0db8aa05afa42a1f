// `validate` against adversarial input (issue 17): the time for 20,000 problems (in one
// file, and spread over 2,000 files) and for files of several hostile shapes (many
// unknown keys, many anchors and aliases, deep nesting, many documents) at 3 MiB and just
// under the 512 KiB limit. Each case is loaded in-process by `loadDefinitions` (median of
// several rounds, interleaved with its floor) and by a cold `incident-sync validate`
// process (what a pull-request job waits for, with its peak RSS). The floor, measured in
// the same run, is yaml's own lexer and parser over the same files (the concrete syntax
// tree only: no composing, which would overflow the stack on deep nesting, and no
// repeated-key check, which is quadratic); for the 3 MiB files it is timed once, as what
// parsing them would cost without the limit.
//
//   npm run build && npx node bench/run.mjs adversarial
//   npx node bench/definitions-adversarial.bench.mjs [--runs 7] [--dist path/to/other/dist]
//
// --dist measures another build (for instance the commit before these limits) with the
// same inputs; cases it cannot finish in --timeout seconds are reported as such.
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { coldValidate } from "./support/cold-validate.mjs";
import { median } from "./support/median.mjs";

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 1024 * 1024;
const UNDER_LIMIT = 512 * 1024 - 1024;
const OWN_DIST = path.join(root, "dist");

const HEAD =
  "id: inc-a\nname: A\nseverity: MAJOR\nstatus: IDENTIFIED\nservices:\n  - { id: svc-a, name: A }\n";

/** Repeats `piece(i)` until the text would pass `bytes`. */
function fill(prefix, bytes, piece) {
  const parts = [prefix];
  let size = prefix.length;
  for (let index = 0; ; index++) {
    const next = piece(index);
    if (size + next.length > bytes) break;
    parts.push(next);
    size += next.length;
  }
  return parts.join("");
}

/** The hostile shapes, each as one file of about `bytes` bytes. */
const SHAPES = {
  "unknown keys": (bytes) => fill(HEAD, bytes, (index) => `key${index}: value\n`),
  "anchors and aliases": (bytes) => {
    const anchors = Math.floor(bytes / 40);
    return fill(`${HEAD}evidence:\n  checks:\n`, bytes, (index) =>
      index < anchors ? `    - &a${index} chk-${index}\n` : `    - *a${index % anchors}\n`,
    );
  },
  "deep nesting": (bytes) => `${HEAD}reason: ${"[".repeat(bytes - HEAD.length - 9)}\n`,
  "many documents": (bytes) => fill("", bytes, (index) => `---\nid: inc-${index}\n`),
};

/** Each case: a name, its files, and the problem code the loader must report. */
function cases() {
  const list = [
    {
      name: "20,000 problems in one file (unknown keys)",
      files: {
        "a.yaml": `${HEAD}${Array.from({ length: 20_000 }, (_, index) => `key${index}: value`).join("\n")}\n`,
      },
      expect: "too-many-problems",
    },
    {
      name: "20,000 problems in 2,000 files (10 unknown keys each)",
      files: Object.fromEntries(
        Array.from({ length: 2_000 }, (_, file) => [
          `f${String(file).padStart(4, "0")}.yaml`,
          `${HEAD.replace("inc-a", `inc-${file}`)}${Array.from({ length: 10 }, (_, index) => `key${index}: value`).join("\n")}\n`,
        ]),
      ),
      expect: "unknown-key",
    },
  ];
  for (const [shape, write] of Object.entries(SHAPES)) {
    list.push({
      name: `3 MiB: ${shape}`,
      files: { "a.yaml": write(3 * MiB) },
      expect: "file-too-large",
      big: true,
    });
  }
  const expected = {
    "unknown keys": "too-many-problems",
    "anchors and aliases": "too-many-aliases",
    "deep nesting": "too-deep",
    "many documents": "too-many-documents",
  };
  for (const [shape, write] of Object.entries(SHAPES)) {
    list.push({
      name: `under 512 KiB: ${shape}`,
      files: { "a.yaml": write(UNDER_LIMIT) },
      expect: expected[shape],
    });
  }
  return list;
}

/** yaml's lexer and parser over every file: the syntax tree, nothing else. */
function yamlSyntaxTree(Parser, texts) {
  for (const text of texts) for (const _token of new Parser().parse(text));
}

export async function run({ runs = 7, dist = OWN_DIST, timeoutSeconds = 60 } = {}) {
  const { loadDefinitions } = require(path.join(dist, "src", "definitions"));
  const { Parser } = require("yaml");
  const cli = path.join(dist, "src", "cli", "main.js");
  const results = [];
  for (const testCase of cases()) {
    const dir = await mkdtemp(path.join(tmpdir(), "incident-sync-bench-adversarial-"));
    try {
      for (const [name, text] of Object.entries(testCase.files))
        await writeFile(path.join(dir, name), text);
      const names = (await readdir(dir)).sort();
      const texts = names.map((name) => readFileSync(path.join(dir, name), "utf8"));
      const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

      // A build that cannot finish (the quadratic one) is measured once, by a cold process.
      const cold = [await coldValidate(cli, dir, { timeoutMs: timeoutSeconds * 1000 })];
      const finished = cold[0].failed === undefined;
      const load = [];
      const floor = [];
      let last;
      if (finished) {
        last = await loadDefinitions(dir);
        const codes = new Set(last.problems.map((problem) => problem.code));
        // Another build (--dist) may predate the codes; this build must report them.
        if (dist === OWN_DIST && !codes.has(testCase.expect)) {
          throw new Error(
            `${testCase.name}: expected a ${testCase.expect} problem, got ${[...codes].join(", ")}`,
          );
        }
        const floorRuns = testCase.big ? 1 : runs;
        for (let round = 0; round < runs; round++) {
          let start = performance.now();
          await loadDefinitions(dir);
          load.push(performance.now() - start);
          if (round < floorRuns) {
            start = performance.now();
            yamlSyntaxTree(Parser, texts);
            floor.push(performance.now() - start);
          }
        }
        for (let round = 1; round < 3; round++)
          cold.push(await coldValidate(cli, dir, { timeoutMs: timeoutSeconds * 1000 }));
      }
      const result = {
        name: testCase.name,
        files: names.length,
        bytes,
        expect: testCase.expect,
        problemsListed: last?.problems.length,
        codes: last ? [...new Set(last.problems.map((problem) => problem.code))] : undefined,
        loadMedianMs: finished ? median(load) : undefined,
        floorMedianMs: finished ? median(floor) : undefined,
        floorRuns: floor.length,
        cliMedianMs: median(cold.map((sample) => sample.wallMs)),
        cliPeakRssMiB: finished
          ? Math.max(...cold.map((sample) => sample.maxRssKiB)) / 1024
          : undefined,
        failed: cold[0].failed,
      };
      results.push(result);
      process.stdout.write(`${line(result)}\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return {
    name: "definitions-adversarial",
    runs,
    dist,
    node: process.version,
    loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
    results,
  };
}

function line(result) {
  const ms = (value) => (value === undefined ? "—" : `${value.toFixed(0)} ms`);
  const size =
    result.bytes >= MiB
      ? `${(result.bytes / MiB).toFixed(1)} MiB`
      : `${(result.bytes / 1024).toFixed(0)} KiB`;
  if (result.failed)
    return `  ${result.name} (${size}): cold CLI ${result.failed} after ${ms(result.cliMedianMs)}`;
  const ratio =
    result.floorMedianMs > 0
      ? ` (${(result.loadMedianMs / result.floorMedianMs).toFixed(2)}x)`
      : "";
  return `  ${result.name} (${size}, ${result.files} file${result.files === 1 ? "" : "s"}): load ${ms(result.loadMedianMs)}, yaml syntax tree ${ms(result.floorMedianMs)}${ratio}, cold CLI ${ms(result.cliMedianMs)}, ${result.cliPeakRssMiB.toFixed(0)} MiB peak; ${result.problemsListed} problems listed (${result.codes.join(", ")})`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { runs: { type: "string" }, dist: { type: "string" }, timeout: { type: "string" } },
  });
  process.stdout.write(`definitions: adversarial input (medians; ${process.version})\n`);
  const result = await run({
    runs: Number(values.runs ?? 7),
    dist: values.dist ? path.resolve(values.dist) : undefined,
    timeoutSeconds: Number(values.timeout ?? 60),
  });
  process.stdout.write(
    `  machine load average (1, 5, 15 min) at the end: ${result.loadAverage.join(", ")}\n`,
  );
  const out = path.join(root, "bench", "results");
  await mkdir(out, { recursive: true });
  await writeFile(
    path.join(out, "definitions-adversarial.json"),
    `${JSON.stringify(result, null, 2)}\n`,
  );
}
