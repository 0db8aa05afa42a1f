import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const floor = (
  JSON.parse(readFileSync(join(root, "test", "floor.json"), "utf8")) as { passed: number }
).passed;
const dir = mkdtempSync(join(tmpdir(), "incident-sync-totals-"));

function report(name: string, counts: Record<string, unknown>): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(counts));
  return file;
}

function totals(...reports: string[]) {
  const run = spawnSync(process.execPath, [join(root, "scripts", "test-totals.mjs"), ...reports], {
    encoding: "utf8",
  });
  const lines = run.stdout.trimEnd().split("\n");
  return { code: run.status, last: lines.at(-1), stderr: run.stderr };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the totals line CI ends with", () => {
  it("adds up every vitest report into one plain line and passes when nothing failed", () => {
    const a = report("a.json", { numPassedTests: floor, numFailedTests: 0, numPendingTests: 2 });
    const b = report("b.json", { numPassedTests: 5, numFailedTests: 0 });
    expect(totals(a, b)).toMatchObject({
      code: 0,
      last: `tests: ${floor + 5} passed, 0 failed, 2 skipped`,
    });
  });

  it("fails when a test failed, still printing the totals last", () => {
    const a = report("c.json", { numPassedTests: floor, numFailedTests: 1 });
    expect(totals(a)).toMatchObject({ code: 1, last: `tests: ${floor} passed, 1 failed` });
  });

  it("counts a failing test once, not again for its file, and a file that failed to load as one", () => {
    const a = report("f.json", {
      numPassedTests: floor,
      numFailedTests: 1,
      numFailedTestSuites: 3,
      testResults: [
        { status: "failed", assertionResults: [{ status: "passed" }, { status: "failed" }] },
        { status: "failed", assertionResults: [] },
        { status: "passed", assertionResults: [{ status: "passed" }] },
      ],
    });
    expect(totals(a)).toMatchObject({ code: 1, last: `tests: ${floor} passed, 2 failed` });
  });

  it("fails when a report is missing, as when the run never finished", () => {
    const result = totals(join(dir, "never-written.json"));
    expect(result.code).toBe(1);
    expect(result.last).toBe("tests: 0 passed, 1 failed");
    expect(result.stderr).toContain("never-written.json is missing");
  });

  it("fails when fewer tests passed than the floor kept in test/floor.json", () => {
    const a = report("d.json", { numPassedTests: floor - 1, numFailedTests: 0 });
    const result = totals(a);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`fewer than the floor of ${floor}`);
  });

  it("leaves the floor out with --no-floor, for the reliability runs, which are not the suite", () => {
    const a = report("e.json", { numPassedTests: 3, numFailedTests: 0 });
    expect(totals("--no-floor", a)).toMatchObject({ code: 0, last: "tests: 3 passed, 0 failed" });
  });
});
