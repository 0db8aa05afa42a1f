import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "incident-sync-totals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A floor of two files, as `npm run floor` writes it. */
const floorFile = join(dir, "floor.json");
writeFileSync(
  floorFile,
  `${JSON.stringify({ files: { "test/a.test.ts": 2, "test/b.test.ts": 1 } }, null, 2)}\n`,
);

/** A reliability floor of one file, and no line lowering a count. */
const reliabilityFloorFile = join(dir, "floor-reliability.json");
writeFileSync(reliabilityFloorFile, JSON.stringify({ files: { "test/reliability/r.test.ts": 4 } }));
const noLines = join(dir, "lowered-none.md");
/** A file as the script names it in messages: from the repository's root. */
const shown = (file: string) => relative(root, file);
writeFileSync(noLines, "# Lowered\n");

type Status = "passed" | "failed" | "skipped" | "todo";
interface Test {
  status: Status;
  /** The test's own title; its describe blocks' titles come before it in `fullName`. */
  title?: string;
  fullName?: string;
  failureMessages?: string[];
}

/** A vitest JSON report of `files` (by their path in the repository) and their tests. */
function report(name: string, files: Record<string, readonly Test[]>, extra = {}): string {
  const tests = Object.values(files).flat();
  const count = (status: Status) => tests.filter((test) => test.status === status).length;
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      numPassedTests: count("passed"),
      numFailedTests: count("failed"),
      numPendingTests: count("skipped"),
      numTodoTests: count("todo"),
      testResults: Object.entries(files).map(([path, assertionResults]) => ({
        name: join(root, path),
        status: assertionResults.some((test) => test.status === "failed") ? "failed" : "passed",
        assertionResults: assertionResults.map((test, index) => ({
          title: test.title ?? test.fullName ?? `test ${index}`,
          fullName: test.fullName ?? test.title ?? `test ${index}`,
          ...test,
        })),
      })),
      ...extra,
    }),
  );
  return file;
}

const pass = (n: number): Test[] => Array.from({ length: n }, () => ({ status: "passed" }));
/** The suite exactly as the floor holds it. */
const SUITE = { "test/a.test.ts": pass(2), "test/b.test.ts": pass(1) };

/** The floors of this file, and `lowered` as the file of lines lowering a count. */
function totalsWith(lowered: string, ...args: string[]) {
  const run = spawnSync(
    process.execPath,
    [
      join(root, "scripts", "test-totals.mjs"),
      ...["--floor-file", floorFile, "--reliability-floor-file", reliabilityFloorFile],
      ...["--lowered-file", lowered],
      ...args,
    ],
    { encoding: "utf8" },
  );
  const lines = run.stdout.trimEnd().split("\n");
  return { code: run.status, last: lines.at(-1), stdout: run.stdout, stderr: run.stderr };
}
const totals = (...args: string[]) => totalsWith(noLines, ...args);

/** A file of lines lowering counts, as test/floor-lowered.md holds them. */
function loweredFile(name: string, ...lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    ["# Lowered", "", "    - `test/example.test.ts` 1: an example", ...lines, ""].join("\n"),
  );
  return file;
}

describe("the totals line CI ends with", () => {
  it("adds up every vitest report into one plain line and passes when the suite is its floor", () => {
    const suite = report("suite.json", SUITE);
    const other = report("other.json", {
      "test/reliability/r.test.ts": [...pass(4), { status: "skipped", title: "R10 (issue 51)" }],
    });
    expect(totals(suite, other)).toMatchObject({
      code: 0,
      last: "tests: 7 passed, 0 failed, 1 skipped",
      stderr: "",
    });
  });

  it("fails when a test failed, still printing the totals last", () => {
    const suite = report("failed.json", {
      ...SUITE,
      "test/b.test.ts": [...pass(1), { status: "failed" }],
    });
    expect(totals(suite)).toMatchObject({ code: 1, last: "tests: 3 passed, 1 failed" });
  });

  it("prints why each test failed, its first lines, beside the totals that end CI's log", () => {
    const why = [
      "AssertionError: expected 4 to be 5",
      ...pass(7).map((_, n) => `    at line ${n}`),
    ];
    const suite = report("failed-why.json", {
      ...SUITE,
      "test/b.test.ts": [
        ...pass(1),
        { status: "failed", fullName: "kill -9 opens once", failureMessages: [why.join("\n")] },
      ],
    });
    const run = totals(suite);
    expect(run.stderr).toContain(
      'test totals: failed: test/b.test.ts: "kill -9 opens once"\n    AssertionError: expected 4 to be 5\n        at line 0\n',
    );
    expect(run.stderr).toContain("at line 4\n");
    expect(run.stderr).not.toContain("at line 5");
  });

  it("counts a failing test once, not again for its file, and a file that failed to load as one", () => {
    const a = join(dir, "load.json");
    writeFileSync(
      a,
      JSON.stringify({
        numPassedTests: 3,
        numFailedTests: 1,
        numFailedTestSuites: 3,
        testResults: [
          {
            name: join(root, "test/a.test.ts"),
            status: "failed",
            assertionResults: [{ status: "passed" }, { status: "passed" }, { status: "failed" }],
          },
          { name: join(root, "test/c.test.ts"), status: "failed", assertionResults: [] },
          { name: join(root, "test/b.test.ts"), status: "passed", assertionResults: pass(1) },
        ],
      }),
    );
    expect(totals(a)).toMatchObject({ code: 1, last: "tests: 3 passed, 2 failed" });
  });

  it("fails when a report is missing, as when the run never finished", () => {
    const result = totals(join(dir, "never-written.json"));
    expect(result.code).toBe(1);
    expect(result.last).toBe("tests: 0 passed, 1 failed");
    expect(result.stderr).toContain("never-written.json is missing");
  });

  it("fails when a test file is deleted, a test is lost, or one is added without its count", () => {
    const deleted = totals(report("deleted.json", { "test/a.test.ts": pass(2) }));
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toContain(
      `test totals: test/b.test.ts: did not run (deleted, renamed or left out?), its floor is 1, and no line of ${shown(noLines)} lowers it to 0\n`,
    );
    const lost = totals(report("lost.json", { ...SUITE, "test/a.test.ts": pass(1) }));
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain(
      `test/a.test.ts: 1 passed, fewer than its floor of 2, and no line of ${shown(noLines)} lowers it to 1\n`,
    );
    const added = totals(report("added.json", { ...SUITE, "test/c.test.ts": pass(1) }));
    expect(added.code).toBe(1);
    expect(added.stderr).toContain("test/c.test.ts: 1 passed, and the floor has no count for it\n");
    expect(added.stderr).toContain("run `npm run floor` after `npm test`");
  });

  it("fails on a skipped or todo test that names no issue, wherever it ran", () => {
    const suite = report("suite-skip.json", {
      ...SUITE,
      "test/a.test.ts": [...pass(2), { status: "todo", title: "the ledger clamps a far tat" }],
    });
    const other = report("other-skip.json", {
      "test/reliability/r.test.ts": [
        {
          status: "skipped",
          title: "R9 shares the budget",
          fullName: "the rate window of issue 37 R9 shares the budget",
        },
      ],
    });
    const result = totals(suite, other);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'test totals: skipped without naming an issue ("… (issue N)" in its own title): test/a.test.ts: "the ledger clamps a far tat" (todo)',
        'test totals: skipped without naming an issue ("… (issue N)" in its own title): test/reliability/r.test.ts: "the rate window of issue 37 R9 shares the budget" (skipped)',
        "",
      ].join("\n"),
    );
  });

  it("leaves the floor out with --no-floor, for the reliability runs, which are not the suite", () => {
    const a = report("reliability.json", { "test/reliability/r.test.ts": pass(3) });
    expect(totals("--no-floor", a)).toMatchObject({ code: 0, last: "tests: 3 passed, 0 failed" });
  });

  it("writes the floor from a suite that passed: each file's count of passing tests", () => {
    const written = join(dir, "written-floor.json");
    const suite = report("to-floor.json", {
      "test/z.test.ts": pass(3),
      "test/a.test.ts": [...pass(1), { status: "skipped", title: "x #9" }],
    });
    const run = spawnSync(
      process.execPath,
      [join(root, "scripts", "test-totals.mjs"), "--write-floor", "--floor-file", written, suite],
      { encoding: "utf8" },
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(written, "utf8"))).toEqual({
      files: { "test/a.test.ts": 1, "test/z.test.ts": 3 },
    });
  });

  it("lets a count go down only with a line naming the file, that count and why, and prints every such line", () => {
    const lost = report("lowered.json", { "test/a.test.ts": pass(1) });
    const lines = loweredFile(
      "lowered.md",
      "- `test/a.test.ts` 1: the two cases of the ledger are one now",
      "- `test/b.test.ts` 0: merged into test/a.test.ts",
    );
    const allowed = totalsWith(lines, lost);
    expect(allowed).toMatchObject({ code: 0, last: "tests: 1 passed, 0 failed", stderr: "" });
    expect(allowed.stdout.split("\n").slice(0, 2)).toEqual([
      "test totals: floor lowered on purpose: `test/a.test.ts` 1: the two cases of the ledger are one now",
      "test totals: floor lowered on purpose: `test/b.test.ts` 0: merged into test/a.test.ts",
    ]);
    // A line for another count, or one not of the list's shape, lowers nothing.
    const other = loweredFile(
      "other.md",
      "- `test/a.test.ts` 0: gone",
      "- test/b.test.ts 0 merged",
    );
    const refused = totalsWith(other, lost);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("test/a.test.ts: 1 passed, fewer than its floor of 2");
    expect(refused.stderr).toContain(
      `${shown(other)}:5: a line of the list is "- \`test/file.test.ts\` COUNT: why", not "- test/b.test.ts 0 merged"`,
    );
  });

  it("writes a lower count only when its line is there, and writes raises without one", () => {
    const written = join(dir, "guarded-floor.json");
    const write = (lowered: string, suite: string) => {
      writeFileSync(
        written,
        JSON.stringify({ files: { "test/a.test.ts": 2, "test/b.test.ts": 1 } }),
      );
      return spawnSync(
        process.execPath,
        [join(root, "scripts", "test-totals.mjs"), "--write-floor", "--floor-file", written].concat(
          ["--lowered-file", lowered, suite],
        ),
        { encoding: "utf8" },
      );
    };
    const lower = report("lower.json", { "test/a.test.ts": pass(1), "test/b.test.ts": pass(3) });
    const refused = write(noLines, lower);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `test/a.test.ts: 1 passed, fewer than its floor of 2: lowering it needs the line "- \`test/a.test.ts\` 1: why" in ${shown(noLines)}`,
    );
    expect(JSON.parse(readFileSync(written, "utf8")).files["test/a.test.ts"]).toBe(2);
    const lines = loweredFile("write.md", "- `test/a.test.ts` 1: one case folded into another");
    expect(write(lines, lower).status).toBe(0);
    expect(JSON.parse(readFileSync(written, "utf8"))).toEqual({
      files: { "test/a.test.ts": 1, "test/b.test.ts": 3 },
    });
  });

  it("holds the reliability report to a floor of its own, so a deleted reliability file fails", () => {
    const suite = report("with-reliability.json", SUITE);
    const reliability = (name: string, count: number) =>
      report(name, count > 0 ? { "test/reliability/r.test.ts": pass(count) } : {});
    expect(totals(suite, "--reliability", reliability("r-ok.json", 4))).toMatchObject({
      code: 0,
      last: "tests: 7 passed, 0 failed",
    });
    const gone = totals("--no-floor", "--reliability", reliability("r-gone.json", 0));
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(
      "test/reliability/r.test.ts: did not run (deleted, renamed or left out?), its floor is 4",
    );
    expect(gone.stderr).toContain("run `npm run floor:reliability` after a reliability run");
  });

  it("holds test/floor-reliability.json as a count for each file of test/reliability", () => {
    const floor = JSON.parse(
      readFileSync(join(root, "test", "floor-reliability.json"), "utf8"),
    ) as { files: Record<string, number> };
    const files = readdirSync(join(root, "test", "reliability"))
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => `test/reliability/${name}`)
      .sort();
    expect(Object.keys(floor.files).sort()).toEqual(files);
    for (const count of Object.values(floor.files)) expect(count).toBeGreaterThan(0);
  });

  it("runs under configs that fail a test making no assertion, so an emptied test loses its count", async () => {
    for (const config of ["vitest.config.mts", "vitest.reliability.config.mts"].concat(
      "vitest.vendor-cli.config.mts",
    )) {
      const loaded = (await import(join(root, config))) as {
        default: { test?: { expect?: { requireAssertions?: boolean } } };
      };
      expect(loaded.default.test?.expect?.requireAssertions, config).toBe(true);
    }
  });

  it("holds test/floor.json as a count for each test file of the suite", () => {
    const floor = JSON.parse(readFileSync(join(root, "test", "floor.json"), "utf8")) as {
      files: Record<string, number>;
    };
    const counts = Object.entries(floor.files);
    expect(counts.length).toBeGreaterThan(100);
    for (const [file, count] of counts) {
      expect(file).toMatch(/^test\/.+\.test\.ts$/);
      expect(existsSync(join(root, file)), file).toBe(true);
      expect(count).toBeGreaterThan(0);
    }
  });
});
