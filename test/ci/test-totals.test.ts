import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

type Status = "passed" | "failed" | "skipped" | "todo";
interface Test {
  status: Status;
  fullName?: string;
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
          fullName: `test ${index}`,
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

function totals(...args: string[]) {
  const run = spawnSync(
    process.execPath,
    [join(root, "scripts", "test-totals.mjs"), "--floor-file", floorFile, ...args],
    { encoding: "utf8" },
  );
  const lines = run.stdout.trimEnd().split("\n");
  return { code: run.status, last: lines.at(-1), stderr: run.stderr };
}

describe("the totals line CI ends with", () => {
  it("adds up every vitest report into one plain line and passes when the suite is its floor", () => {
    const suite = report("suite.json", SUITE);
    const other = report("other.json", {
      "test/reliability/r.test.ts": [...pass(4), { status: "skipped", fullName: "R10 (issue 51)" }],
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
      "test totals: test/b.test.ts: did not run (deleted, renamed or left out?), its floor is 1\n",
    );
    const lost = totals(report("lost.json", { ...SUITE, "test/a.test.ts": pass(1) }));
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain("test/a.test.ts: 1 passed, fewer than its floor of 2\n");
    const added = totals(report("added.json", { ...SUITE, "test/c.test.ts": pass(1) }));
    expect(added.code).toBe(1);
    expect(added.stderr).toContain("test/c.test.ts: 1 passed, and the floor has no count for it\n");
    expect(added.stderr).toContain("run `npm run floor` after `npm test`");
  });

  it("fails on a skipped or todo test that names no issue, wherever it ran", () => {
    const suite = report("suite-skip.json", {
      ...SUITE,
      "test/a.test.ts": [...pass(2), { status: "todo", fullName: "the ledger clamps a far tat" }],
    });
    const other = report("other-skip.json", {
      "test/reliability/r.test.ts": [{ status: "skipped", fullName: "R9 shares the budget" }],
    });
    const result = totals(suite, other);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'test totals: skipped without naming an issue ("… (issue N)" in its title): test/a.test.ts: "the ledger clamps a far tat" (todo)',
        'test totals: skipped without naming an issue ("… (issue N)" in its title): test/reliability/r.test.ts: "R9 shares the budget" (skipped)',
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
      "test/a.test.ts": [...pass(1), { status: "skipped", fullName: "x (issue 9)" }],
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
