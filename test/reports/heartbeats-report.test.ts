import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReportHeartbeats } from "../../src/cli/commands/report-heartbeats";
import type { RunningEmulator } from "../../src/emulator";
import { HeartbeatReport } from "../../src/reports";
import { apiEnv, captureIo, startSeededEmulator } from "./support/harness";
import { HEARTBEATS } from "./support/heartbeat-seed";
import { parseMarkdownTables } from "./support/markdown";

let running: RunningEmulator;
beforeAll(async () => {
  running = await startSeededEmulator({ heartbeats: HEARTBEATS });
});
afterAll(async () => {
  await running?.close();
});

async function report(
  args: Partial<Parameters<typeof runReportHeartbeats>[0]> & {
    format: "md" | "csv" | "json" | "html";
  },
) {
  const capture = captureIo(apiEnv(running));
  const code = await runReportHeartbeats(
    { check: ["hb-flappy"], since: "24h", ...args },
    capture.io,
  );
  return { code, ...capture };
}

describe("report heartbeats", () => {
  test("a 24 h window returns all 45 events, past the 10-per-call cap, oldest first, with both stats periods", async () => {
    const { code, stdout, stderr } = await report({ format: "json" });

    expect(code).toBe(0);
    const parsed = HeartbeatReport.parse(JSON.parse(stdout()));
    const [flappy] = parsed.checks;
    expect(flappy?.events).toHaveLength(45);
    expect(new Set(flappy?.events.map((e) => e.id)).size).toBe(45);
    const times = flappy!.events.map((e) => Date.parse(e.timestamp!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse(parsed.window.from));
    expect(flappy?.events.slice(0, 4).map((e) => e.state)).toEqual([
      "RECEIVED",
      "FAILING",
      "RECEIVED",
      "FAILING",
    ]);
    expect(flappy?.stats?.last24Hours?.successRatio?.currentPeriod).toBeGreaterThan(0);
    expect(flappy?.stats?.last7Days?.totalEntitiesCurrentPeriod).toBeGreaterThan(0);
    expect(flappy?.warnings).toEqual([]);
    expect(stderr()).toBe("Wrote 45 event(s) of 1 heartbeat(s).\n");
  });

  test("a 7 d window also returns the older state changes, and an ISO start works the same way", async () => {
    const week = HeartbeatReport.parse(
      JSON.parse((await report({ format: "json", since: "7d" })).stdout()),
    );
    expect(week.checks[0]?.events).toHaveLength(47);

    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const iso = HeartbeatReport.parse(
      JSON.parse((await report({ format: "json", since: from })).stdout()),
    );
    expect(iso.checks[0]?.events.map((e) => e.id)).toEqual(week.checks[0]?.events.map((e) => e.id));
  });

  test("the CSV report parses back into one row per event of every check", async () => {
    const { stdout } = await report({ format: "csv", check: ["hb-flappy", "hb-quiet"] });

    const rows = parse(stdout(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(45);
    expect(Object.keys(rows[0]!)).toEqual([
      "checkId",
      "checkName",
      "id",
      "state",
      "timestamp",
      "source",
      "userAgent",
    ]);
    expect(rows.filter((r) => r.source === "manual run, from ops laptop")).toHaveLength(30);
  });

  test("the Markdown report renders a stats table and an events table per heartbeat", async () => {
    const { stdout } = await report({ format: "md", check: ["hb-flappy", "hb-quiet"] });

    const tables = parseMarkdownTables(stdout());
    const stats = tables.filter((t) => t.headers[0] === "Period");
    expect(stats).toHaveLength(2);
    expect(stats[0]?.rows.map((r) => r[0])).toEqual(["24 h", "7 d"]);
    expect(stats[0]?.rows[0]?.[1]).toMatch(/^\d+\.\d\d %$/);
    const events = tables.filter((t) => t.headers[0] === "Time");
    expect(events).toHaveLength(1);
    expect(events[0]?.rows).toHaveLength(45);
  });

  test("a period with no pings reads no pings, and no change is drawn from or to it, in Markdown, HTML and JSON", async () => {
    const checks = ["hb-flappy", "hb-quiet", "hb-steady"];
    const md = parseMarkdownTables((await report({ format: "md", check: checks })).stdout());
    expect(md.filter((t) => t.headers[0] === "Period").map((t) => t.rows)).toMatchInlineSnapshot(`
      [
        [
          [
            "24 h",
            "51.11 %",
            "0.00 % or no pings",
            "n/a (maybe no pings)",
            "45",
          ],
          [
            "7 d",
            "51.06 %",
            "0.00 % or no pings",
            "n/a (maybe no pings)",
            "47",
          ],
        ],
        [
          [
            "24 h",
            "no pings",
            "no pings",
            "n/a (no pings)",
            "0",
          ],
          [
            "7 d",
            "no pings",
            "0.00 % or no pings",
            "n/a (no pings)",
            "0",
          ],
        ],
        [
          [
            "24 h",
            "100.00 %",
            "100.00 %",
            "±0.00 pt",
            "24",
          ],
          [
            "7 d",
            "100.00 %",
            "0.00 % or no pings",
            "n/a (maybe no pings)",
            "30",
          ],
        ],
      ]
    `);

    const html = (await report({ format: "html", check: ["hb-quiet"] })).stdout();
    expect(html).toContain('<td class="num">no pings</td>');
    expect(html).not.toContain(">0.00 %</td>");

    const json = HeartbeatReport.parse(
      JSON.parse((await report({ format: "json", check: ["hb-quiet", "hb-steady"] })).stdout()),
    );
    const [quiet, steady] = json.checks;
    // `stats` stays as the API sent it; `successRatios` says what it means.
    expect(quiet?.stats?.last24Hours?.successRatio?.currentPeriod).toBe(0);
    expect(quiet?.successRatios.last24Hours).toEqual({
      current: { ratio: null, pings: 0, note: "no pings" },
      previous: { ratio: null, pings: 0, note: "no pings" },
      change: null,
    });
    expect(steady?.successRatios.last24Hours).toEqual({
      current: { ratio: 100, pings: 24, note: null },
      previous: { ratio: 100, pings: null, note: null },
      change: 0,
    });
  });

  test("every format lists the events oldest first, as the JSON holds them", async () => {
    const json = HeartbeatReport.parse(JSON.parse((await report({ format: "json" })).stdout()));
    const oldestFirst = json.checks[0]?.events.map((e) => e.timestamp) ?? [];
    expect(oldestFirst).toHaveLength(45);
    expect(oldestFirst).toEqual([...oldestFirst].sort());

    const md = parseMarkdownTables((await report({ format: "md" })).stdout());
    expect(md.find((t) => t.headers[0] === "Time")?.rows.map((r) => r[0])).toEqual(oldestFirst);
    const csv = parse((await report({ format: "csv" })).stdout(), { columns: true });
    expect((csv as Record<string, string>[]).map((r) => r.timestamp)).toEqual(oldestFirst);
    // The HTML table starts sorted by time, ascending (a click on the column flips it).
    const html = (await report({ format: "html" })).stdout();
    const data = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html);
    const tables = (JSON.parse(data?.[1] ?? "{}") as { tables: Record<string, unknown> }).tables;
    expect(tables["events-0"]).toMatchObject({ sort: { column: 0, dir: "asc" } });
  });

  test("a heartbeat that pings on time every hour is shown as healthy, with its state since before the window", async () => {
    const json = HeartbeatReport.parse(
      JSON.parse((await report({ format: "json", check: ["hb-steady"] })).stdout()),
    );
    const [steady] = json.checks;
    // One RECEIVED 29 h 10 min ago, and no state change since: on-time pings are not events.
    expect(steady?.events).toEqual([]);
    expect(steady?.lastEventBefore?.state).toBe("RECEIVED");
    expect(steady?.stateAtEnd).toMatchObject({ state: "RECEIVED", meaning: "arrived" });
    expect(steady?.warnings).toEqual([]);

    const { stdout } = await report({ format: "md", check: ["hb-steady"] });
    expect(stdout()).toMatch(/^Now: RECEIVED \(healthy\) since \S+ \S+ UTC \(1 d 5 h\)\.$/m);

    const html = (await report({ format: "html", check: ["hb-steady"] })).stdout();
    expect(html).toContain("Now: RECEIVED (healthy) since");
    expect(html).toContain("Time in each state over the window: RECEIVED 100.0 %.");
  });

  test("a --since that is neither a duration nor a date is refused with the accepted forms", async () => {
    await expect(
      report({ format: "md", since: "yesterday" }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `[WindowError: --since "yesterday" is neither a duration (30m, 24h, 7d, 2w) nor an ISO date (2026-11-01 or 2026-11-01T08:00:00Z).]`,
    );
  });
});
