import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReportErrors } from "../../src/cli/commands/report-errors";
import type { RunningEmulator } from "../../src/emulator";
import { ErrorReport } from "../../src/reports";
import {
  ACCOUNT,
  apiEnv,
  captureIo,
  control,
  startSeededEmulator,
  tempDir,
} from "./support/harness";
import { renderedMarkdownTables } from "./support/markdown";
import { groupIdsPageByPage } from "./support/truth";

let running: RunningEmulator;
let dir: string;

beforeAll(async () => {
  running = await startSeededEmulator();
  await control(running, `/accounts/${ACCOUNT}/checks/chk-big/error-groups`, { count: 2_500 });
  await control(running, `/accounts/${ACCOUNT}/check-results`, {
    results: [
      {
        checkId: "chk-small",
        error: "TypeError: cannot read properties of undefined (reading 'id')",
        at: "-2d",
      },
      {
        checkId: "chk-small",
        error: "ECONNRESET while calling https://payments.internal/charge",
        at: "-5h",
      },
      {
        checkId: "chk-small",
        error: 'Expected status 200, got 503 | body: "upstream, down"',
        at: "-1h",
      },
    ],
  });
  dir = await tempDir("errors");
});
afterAll(async () => {
  await running?.close();
});

async function report(
  args: Partial<Parameters<typeof runReportErrors>[0]> & { format: "md" | "csv" | "json" | "html" },
) {
  const capture = captureIo(apiEnv(running));
  const code = await runReportErrors(
    { check: ["chk-big", "chk-small"], progress: false, ...args },
    capture.io,
  );
  return { code, ...capture };
}

describe("report errors", () => {
  test("a JSON export of 2,500 groups across 25 pages has every group exactly once and parses with the report schema", async () => {
    const out = path.join(dir, "all.json");
    const { code, stderr } = await report({ format: "json", out });

    expect(code).toBe(0);
    const parsed = ErrorReport.parse(JSON.parse(await readFile(out, "utf8")));
    const ids = parsed.groups.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    const truth = [
      ...(await groupIdsPageByPage(running, "chk-big")),
      ...(await groupIdsPageByPage(running, "chk-small")),
    ];
    expect(truth).toHaveLength(2_503);
    expect([...ids].sort()).toEqual([...truth].sort());
    expect(parsed.summary).toEqual({
      total: 2_503,
      byCheck: { "chk-big": 2_500, "chk-small": 3 },
      duplicatesSkipped: 0,
    });
    expect(stderr()).toBe(`Wrote 2503 error group(s) to ${out}.\n`);
  });

  test("the CSV export parses back with a CSV parser into one row per group, quoting messages with commas, quotes and pipes", async () => {
    const { code, stdout } = await report({ format: "csv" });

    expect(code).toBe(0);
    const rows = parse(stdout(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2_503);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2_503);
    expect(Object.keys(rows[0]!)).toEqual([
      "checkId",
      "checkName",
      "id",
      "errorHash",
      "cleanedErrorMessage",
      "rawErrorMessage",
      "firstSeen",
      "lastSeen",
      "archivedUntilNextEvent",
    ]);
    const tricky = rows.find((r) => r.rawErrorMessage?.startsWith("Expected status 200"));
    expect(tricky?.rawErrorMessage).toBe('Expected status 200, got 503 | body: "upstream, down"');
    expect(new Set(rows.map((r) => r.archivedUntilNextEvent))).toEqual(new Set(["false"]));
  });

  test("the Markdown report renders one row per group, newest last-seen first, with the raw message beside the cleaned one, escaped so a renderer shows both as written", async () => {
    const { code, stdout } = await report({ format: "md", check: ["chk-small"] });

    expect(code).toBe(0);
    const tables = renderedMarkdownTables(stdout());
    expect(tables[0]).toEqual({ headers: ["Check", "Groups"], rows: [["chk-small", "3"]] });
    const groups = tables[1]!;
    expect(groups.headers).toEqual([
      "Check",
      "Group",
      "Message",
      "Raw message",
      "First seen",
      "Last seen",
      "Archived",
    ]);
    expect(groups.rows).toHaveLength(3);
    expect(groups.rows.map((r) => [r[2], r[3]])).toEqual([
      [
        'Expected status <n>, got <n> | body: "upstream, down"',
        'Expected status 200, got 503 | body: "upstream, down"',
      ],
      [
        "ECONNRESET while calling https://payments.internal/charge",
        "ECONNRESET while calling https://payments.internal/charge",
      ],
      [
        "TypeError: cannot read properties of undefined (reading 'id')",
        "TypeError: cannot read properties of undefined (reading 'id')",
      ],
    ]);
  });

  test("Markdown shows placeholders, emphasis marks, entities and pipes as written", async () => {
    const written = "Bad *value* <ip> in `cfg` [x](y) ~~old~~ a_b &lt; c | d \\ e";
    await control(running, `/accounts/${ACCOUNT}/checks/chk-markdown/results`, { error: written });

    const { stdout } = await report({ format: "md", check: ["chk-markdown"] });

    const [, groups] = renderedMarkdownTables(stdout());
    expect(groups?.rows[0]?.[3]).toBe(written);
    expect(groups?.rows[0]?.[2]).toContain("<ip>");
  });

  test("--top keeps the Markdown and HTML reports to the most recently seen groups and says how many more there are; Markdown stops at 100 unless told", async () => {
    const md = await report({ format: "md", check: ["chk-big"], top: 20 });
    const [, groups] = renderedMarkdownTables(md.stdout());
    expect(groups?.rows).toHaveLength(20);
    expect(md.stdout()).toContain(
      "Showing the 20 most recently seen group(s); 2,480 more are left out (--top). Use --top all, or --format csv or json for every group.",
    );
    const lastSeen = groups!.rows.map((r) => r[5]!);
    expect(lastSeen).toEqual([...lastSeen].sort().reverse());

    const byDefault = await report({ format: "md", check: ["chk-big"] });
    expect(renderedMarkdownTables(byDefault.stdout())[1]?.rows).toHaveLength(100);
    expect(byDefault.stdout()).toContain("2,400 more are left out");

    const all = await report({ format: "md", check: ["chk-big"], top: "all" });
    expect(renderedMarkdownTables(all.stdout())[1]?.rows).toHaveLength(2_500);
    expect(all.stdout()).not.toContain("left out");

    const html = await report({ format: "html", check: ["chk-big"], top: 5 });
    expect(html.stdout()).toContain("2,495 more are left out");
    const data = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(
      html.stdout(),
    );
    expect(JSON.parse(data![1]!).tables.groups.rows).toHaveLength(5);
  });

  test("--details fetches each group's full record, including rootCauseAnalyses, into JSON and CSV", async () => {
    const json = await report({ format: "json", check: ["chk-small"], details: true });
    const parsed = ErrorReport.parse(JSON.parse(json.stdout()));
    expect(parsed.details).toBe(true);
    expect(parsed.groups).toHaveLength(3);
    for (const group of parsed.groups) expect(group.rootCauseAnalyses).toEqual(expect.any(Array));

    const csv = await report({ format: "csv", check: ["chk-small"], details: true });
    const rows = parse(csv.stdout(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(JSON.parse(row.rootCauseAnalyses!)).toEqual(expect.any(Array));
  });

  test("--since-report marks groups new, still present or gone against an earlier JSON report", async () => {
    const before = path.join(dir, "before.json");
    await report({ format: "json", check: ["chk-small"], out: before });
    const earlier = ErrorReport.parse(JSON.parse(await readFile(before, "utf8")));
    // A group the service has since dropped (say, by retention) is in the earlier report only.
    const dropped = { ...earlier.groups[0]!, id: "eg-dropped-by-retention", errorHash: "f00d" };
    // A group of a check this run does not read must not be called gone.
    const otherCheck = { ...earlier.groups[0]!, id: "eg-other-check", checkId: "chk-elsewhere" };
    earlier.groups.push(dropped, otherCheck);
    await writeFile(before, JSON.stringify(earlier));
    await control(running, `/accounts/${ACCOUNT}/checks/chk-small/results`, {
      error: "Timeout of 30000 ms exceeded waiting for selector #checkout",
    });

    const { code, stdout, stderr } = await report({
      format: "json",
      check: ["chk-small"],
      sinceReport: before,
    });

    expect(code).toBe(0);
    const parsed = ErrorReport.parse(JSON.parse(stdout()));
    const byChange = Object.groupBy(parsed.groups, (g) => g.change ?? "none");
    expect(byChange.new?.map((g) => g.rawErrorMessage)).toEqual([
      "Timeout of 30000 ms exceeded waiting for selector #checkout",
    ]);
    expect(byChange.present).toHaveLength(3);
    expect(byChange.gone?.map((g) => g.id)).toEqual(["eg-dropped-by-retention"]);
    expect(parsed.summary).toMatchObject({ new: 1, present: 3, gone: 1 });
    expect(parsed.sinceReport).toEqual({ generatedAt: earlier.generatedAt });
    expect(stderr()).toBe("Wrote 4 error group(s) (1 new, 3 still present, 1 gone).\n");

    const csv = await report({ format: "csv", check: ["chk-small"], sinceReport: before });
    const rows = parse(csv.stdout(), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.change).sort()).toEqual([
      "gone",
      "new",
      "present",
      "present",
      "present",
    ]);
  });

  test("--since-report with a file that is not a JSON report fails with a message naming the file and the problem", async () => {
    const bad = path.join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ kind: "something-else", groups: [{ id: 1 }] }));

    await expect(report({ format: "md", sinceReport: bad })).rejects.toThrowError(
      expect.objectContaining({ name: "PreviousReportError" }),
    );
    const error = await report({ format: "md", sinceReport: bad }).catch((e: Error) => e);
    expect((error as Error).message.replace(bad, "<bad.json>")).toMatchInlineSnapshot(`
      "--since-report <bad.json> is not an error-group report written by \`report errors --format json\`:
      ✖ Invalid input: expected "incident-sync/error-groups-report"
        → at kind
      ✖ Invalid input: expected 1
        → at version
      ✖ Invalid input: expected string, received undefined
        → at generatedAt
      ✖ Invalid input: expected array, received undefined
        → at checks
      ✖ Invalid input: expected boolean, received undefined
        → at details
      ✖ Invalid input: expected object, received undefined
        → at sinceReport
      ✖ Invalid input: expected object, received undefined
        → at summary
      ✖ Invalid input: expected string, received number
        → at groups[0].id
      ✖ Invalid input: expected string, received undefined
        → at groups[0].checkId
      ✖ Invalid input: expected string, received undefined
        → at groups[0].errorHash
      ✖ Invalid input: expected string, received undefined
        → at groups[0].rawErrorMessage
      ✖ Invalid input: expected string, received undefined
        → at groups[0].cleanedErrorMessage
      ✖ Invalid input: expected string, received undefined
        → at groups[0].firstSeen
      ✖ Invalid input: expected string, received undefined
        → at groups[0].lastSeen
      ✖ Invalid input: expected boolean, received undefined
        → at groups[0].archivedUntilNextEvent"
    `);
  });

  test("a failed export leaves no partial file behind and never prints the API key", async () => {
    const out = path.join(dir, "never.json");
    const capture = captureIo({ ...apiEnv(running), MONITORING_API_KEY: "wrong-key-abcdef" });
    const error = await runReportErrors(
      { check: ["chk-small"], format: "json", out, progress: false },
      capture.io,
    ).catch((e: Error) => e);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain("wrong-key-abcdef");
    expect((error as Error).message).toMatchInlineSnapshot(
      `"GET /v1/checks?limit=100&page=1 failed: 401 Unauthorized: the API key is not valid. Check the API key the client was created with."`,
    );
    await expect(readFile(out, "utf8")).rejects.toThrow(/ENOENT/);
    await expect(readFile(`${out}.partial`, "utf8")).rejects.toThrow(/ENOENT/);
  });
});
