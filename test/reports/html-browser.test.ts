import { mkdir } from "node:fs/promises";
import path from "node:path";
import sparticuz from "@sparticuz/chromium";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReportErrors } from "../../src/cli/commands/report-errors";
import { runReportHeartbeats } from "../../src/cli/commands/report-heartbeats";
import type { RunningEmulator } from "../../src/emulator";
import { ErrorReport } from "../../src/reports";
import { launchChromium } from "../support/chromium.mjs";
import {
  ACCOUNT,
  apiEnv,
  captureIo,
  control,
  startSeededEmulator,
  tempDir,
} from "./support/harness";
import { HEARTBEATS } from "./support/heartbeat-seed";
import { openReport, pixelsOfColour, tableRows, wrappedIds } from "./support/report-page";

const ARTIFACTS = path.resolve("test-artifacts");

let running: RunningEmulator;
let dir: string;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  // First, alone: the first launch unpacks the browser (see test/support/chromium.mjs).
  browser = await launchChromium();
  running = await startSeededEmulator({ heartbeats: HEARTBEATS });
  // Groups first and last seen at spread-out times, so the chart has bars of several heights.
  const pages = ["login", "cart", "search", "profile", "orders", "payment"];
  const widgets = ["banner", "button", "form", "menu", "table", "toast", "modal", "video"];
  const results = Array.from({ length: 48 }, (_, i) => [
    {
      checkId: "chk-web",
      error: `Selector #${pages[i % 6]}-${widgets[Math.floor(i / 6)]} not found <script>alert(1)</script>`,
      at: `-${(i % 12) * 5 + 3}h`,
    },
    {
      checkId: "chk-web",
      error: `Selector #${pages[i % 6]}-${widgets[Math.floor(i / 6)]} not found <script>alert(1)</script>`,
      at: `-${(i % 4) + 1}h`,
    },
  ]).flat();
  await control(running, `/accounts/${ACCOUNT}/check-results`, { results });
  await control(running, `/accounts/${ACCOUNT}/checks/chk-billing-reconciliation/error-groups`, {
    count: 12,
  });
  await control(running, `/accounts/${ACCOUNT}/checks/chk-bulk/error-groups`, { count: 10_000 });
  dir = await tempDir("html");
  await mkdir(ARTIFACTS, { recursive: true });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await running?.close();
});

async function errorGroups(checks: string[]) {
  const json = captureIo(apiEnv(running));
  await runReportErrors({ check: checks, format: "json", progress: false }, json.io);
  return ErrorReport.parse(JSON.parse(json.stdout())).groups;
}

describe("HTML reports in a real browser", () => {
  test("the error report loads without errors or requests, charts first and last seen, and its table sorts, filters and pages", async () => {
    const file = path.join(dir, "errors.html");
    const checks = ["chk-web", "chk-billing-reconciliation"];
    await runReportErrors(
      { check: checks, format: "html", out: file, progress: false },
      captureIo(apiEnv(running)).io,
    );
    const groups = await errorGroups(checks);
    expect(groups).toHaveLength(60);

    const { page, attempted, errors } = await openReport(context, file);

    // The chart: uPlot drew both series as bars, with a legend naming them.
    const chart = '[data-chart="groups-over-time"]';
    expect(await pixelsOfColour(page, chart, "#cf222e")).toBeGreaterThan(200);
    expect(await pixelsOfColour(page, chart, "#0969da")).toBeGreaterThan(200);
    const legend = await page.locator(`${chart} .u-legend`).innerText();
    expect(legend).toContain("new groups (first seen)");
    expect(legend).toContain("groups by last seen");
    expect(await page.locator(`${chart} .u-axis`).count()).toBeGreaterThanOrEqual(2);
    // A tooltip names the bucket and both counts where the cursor is.
    const over = page.locator(`${chart} .u-over`);
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
    await expect.poll(() => page.locator(`${chart} .chart-tip`).isVisible()).toBe(true);
    expect(await page.locator(`${chart} .chart-tip`).innerText()).toMatch(
      /UTC\nnew groups \(first seen\): \d+\ngroups by last seen: \d+/,
    );

    // The table: first page of 50, newest last seen first, every group counted.
    expect(await page.locator('[data-table="groups"] .dt-status').first().innerText()).toBe(
      "60 rows",
    );
    let rows = await tableRows(page, "groups");
    expect(rows).toHaveLength(50);
    const lastSeen = rows.map((r) => r[5]!);
    expect(lastSeen).toEqual([...lastSeen].sort().reverse());
    // Escaped, not run: the message shows the markup as text.
    expect(rows.map((r) => r[2]).join("\n")).toContain("<script>alert(<n>)</script>");
    expect(rows.map((r) => r[3]).join("\n")).toContain("<script>alert(1)</script>");

    // Sort by first seen, oldest first (a second click flips to newest first).
    const firstSeenHead = page.locator('[data-table="groups"] th', { hasText: "First seen" });
    await firstSeenHead.click();
    await firstSeenHead.click();
    expect(await firstSeenHead.getAttribute("aria-sort")).toBe("ascending");
    rows = await tableRows(page, "groups");
    const expectedOldest = groups
      .map((g) => g.firstSeen)
      .sort()
      .slice(0, 50)
      .map((t) => t.slice(0, 19).replace("T", " "));
    expect(rows.map((r) => r[4])).toEqual(expectedOldest);

    // Filter by text, then by check.
    await page.fill('[data-table="groups"] input[type="search"]', "login");
    await expect
      .poll(() => page.locator('[data-table="groups"] .dt-status').first().innerText())
      .toBe("8 rows (filtered from 60)");
    expect((await tableRows(page, "groups")).every((r) => r[2]!.includes("login"))).toBe(true);
    await page.fill('[data-table="groups"] input[type="search"]', "");
    await page.selectOption('[data-table="groups"] select[aria-label="Only Check"]', {
      label: "chk-billing-reconciliation",
    });
    await expect
      .poll(() => page.locator('[data-table="groups"] .dt-status').first().innerText())
      .toBe("12 rows (filtered from 60)");
    // The longest check id stays on one line, in the summary and in every row.
    expect(await page.locator("code.id", { hasText: "chk-billing-reconciliation" }).count()).toBe(
      1 + 12,
    );
    expect(await wrappedIds(page)).toEqual([]);

    // Paging: 60 rows at 25 a page is three pages.
    await page.selectOption('[data-table="groups"] select[aria-label="Only Check"]', "");
    await page.selectOption('[data-table="groups"] select[aria-label="Rows per page"]', "25");
    await page.click('[data-table="groups"] button:has-text("Next")');
    await page.click('[data-table="groups"] button:has-text("Next")');
    expect(await page.locator('[data-table="groups"] .dt-pager .dt-status').innerText()).toBe(
      "51–60 of 60 · page 3 of 3",
    );
    expect(await tableRows(page, "groups")).toHaveLength(10);

    // The Content-Security-Policy is in force: an injected inline script does not run.
    await page.addScriptTag({ content: "window.injected = true" }).catch(() => {});
    const ran = await page.evaluate("window.injected === true");
    expect(ran).toBe(false);
    expect(errors.filter((e) => !e.includes("Content Security Policy"))).toEqual([]);
    expect(errors).toHaveLength(1);
    await page.screenshot({ path: path.join(ARTIFACTS, "test-report-errors.png"), fullPage: true });
    expect(attempted).toEqual([]);
  });

  test("the heartbeat report draws one lane per heartbeat with a band per state and a dot per event, and its events table filters by state", async () => {
    const file = path.join(dir, "heartbeats.html");
    await runReportHeartbeats(
      { check: ["hb-flappy", "hb-quiet"], since: "24h", format: "html", out: file },
      captureIo(apiEnv(running)).io,
    );

    const { page, attempted, errors } = await openReport(context, file);

    const chart = '[data-chart="timeline"]';
    // hb-flappy: 45 events after one known earlier state, so 46 bands and 45 dots;
    // hb-quiet: one unknown band.
    expect(await page.locator(chart).getAttribute("data-drawn")).toBe(String(46 + 45 + 1));
    expect(await pixelsOfColour(page, chart, "#1a7f37")).toBeGreaterThan(500);
    expect(await pixelsOfColour(page, chart, "#cf222e")).toBeGreaterThan(500);
    // Hovering a lane names it, by the name the checks list gives it; the lower lane is
    // hb-quiet, unknown all along.
    const over = (await page.locator(`${chart} .u-over`).boundingBox())!;
    await page.mouse.move(over.x + over.width / 2, over.y + over.height * 0.75);
    await expect.poll(() => page.locator(`${chart} .chart-tip`).isVisible()).toBe(true);
    expect(await page.locator(`${chart} .chart-tip`).innerText()).toMatch(
      /^Quiet job \(hb-quiet\)\n.* UTC\nstate unknown \(no earlier event\) for 1 d$/,
    );
    expect(await page.locator(`${chart} .chart-legend`).innerText()).toContain("failing");

    expect(await page.locator('[data-table="events-0"] .dt-status').first().innerText()).toBe(
      "45 rows",
    );
    await page.selectOption('[data-table="events-0"] select[aria-label="Only State"]', "FAILING");
    await expect
      .poll(() => page.locator('[data-table="events-0"] .dt-status').first().innerText())
      .toBe("22 rows (filtered from 45)");
    expect(new Set((await tableRows(page, "events-0")).map((r) => r[1]))).toEqual(
      new Set(["FAILING"]),
    );
    expect(await tableRows(page, "events-1")).toEqual([["No events in the window."]]);
    expect(await page.locator('section[data-check="hb-quiet"]').innerText()).toContain(
      "unknown (no event in the 30 days before)",
    );

    await page.screenshot({
      path: path.join(ARTIFACTS, "test-report-heartbeats.png"),
      fullPage: true,
    });
    expect(errors).toEqual([]);
    expect(attempted).toEqual([]);
  });

  test("10,000 groups load, sort and filter in the page, drawing only one page of rows", async () => {
    const file = path.join(dir, "errors-10000.html");
    await runReportErrors(
      { check: ["chk-bulk"], format: "html", out: file, progress: false },
      captureIo(apiEnv(running)).io,
    );

    // A functional bound only; the measured time is bench/html-report's (BENCHMARKS.md).
    const started = performance.now();
    const { page, errors } = await openReport(context, file);
    expect(performance.now() - started).toBeLessThan(15_000);

    const status = page.locator('[data-table="groups"] .dt-status').first();
    expect(await status.innerText()).toBe("10,000 rows");
    expect(await page.locator('[data-table="groups"] tbody tr').count()).toBe(50);
    await page.click('[data-table="groups"] th:has-text("Group")');
    const ids = (await tableRows(page, "groups")).map((r) => r[1]!);
    expect(ids).toEqual([...ids].sort());
    await page.fill('[data-table="groups"] input[type="search"]', ids[7]!);
    await expect.poll(() => status.innerText()).toBe("1 row (filtered from 10,000)");
    expect(errors).toEqual([]);
  });

  test("the error report's chart draws in a browser whose locale is POSIX (LANG=C.UTF-8, as in CI containers)", async () => {
    const file = path.join(dir, "errors-posix.html");
    await runReportErrors(
      { check: ["chk-web"], format: "html", out: file, progress: false },
      captureIo(apiEnv(running)).io,
    );
    // Without --lang, Chromium takes its locale from LANG, and C.UTF-8 gives "en-US@posix",
    // which Intl refuses: before the page set it right, uPlot threw and the chart stayed blank.
    const posix = await launchChromium({
      args: sparticuz.args,
      env: { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" },
    });
    try {
      const posixContext = await posix.newContext({ viewport: { width: 1280, height: 900 } });
      const probe = await posixContext.newPage();
      expect(await probe.evaluate(() => navigator.language)).toBe("en-US@posix");
      const { page, errors } = await openReport(posixContext, file);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => navigator.language)).toBe("en-US");
      const chart = '[data-chart="groups-over-time"]';
      expect(await pixelsOfColour(page, chart, "#cf222e")).toBeGreaterThan(200);
    } finally {
      await posix.close();
    }
  });
});
