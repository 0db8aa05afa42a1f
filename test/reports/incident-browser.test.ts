import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReportIncident } from "../../src/cli/commands/report-incident";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { launchChromium } from "../support/chromium.mjs";
import { captureIo, tempDir } from "./support/harness";
import { openReport, pixelsOfColour, tableRows, wrappedIds } from "./support/report-page";

const ARTIFACTS = path.resolve("test-artifacts");

let browser: Browser;
let context: BrowserContext;
let demo: RunningEmulator;
let file: string;

beforeAll(async () => {
  // First, alone: the first launch unpacks the browser (see test/support/chromium.mjs).
  browser = await launchChromium();
  demo = await startEmulator({ port: 0, seed: "demo" });
  file = path.join(await tempDir("incident-html"), "incident.html");
  await mkdir(ARTIFACTS, { recursive: true });
  const { io } = captureIo(
    { MONITORING_API_URL: demo.url, MONITORING_API_KEY: demo.demo.apiKey },
    path.resolve("."),
  );
  await runReportIncident(
    {
      ids: ["inc-api-errors", "inc-db-maintenance"],
      dir: "incidents",
      margin: "1h",
      format: "html",
      out: file,
    },
    io,
  );
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await demo?.close();
});

describe("the incident report in a real browser", () => {
  test("one chart per incident lines up status bands, update dots and error-group spans; a tooltip tells what is under the cursor", async () => {
    const { page, attempted, errors } = await openReport(context, file);

    const api = '[data-chart="timeline-0"]';
    // Lanes: updates (3 status bands, 3 dots), chk-api (3 groups), chk-web (1 group).
    expect(await page.locator(api).getAttribute("data-drawn")).toBe(String(3 + 3 + 3 + 1));
    // Opaque dots: red for the new groups and the INVESTIGATING update, blue for MONITORING.
    expect(await pixelsOfColour(page, api, "#cf222e")).toBeGreaterThan(150);
    expect(await pixelsOfColour(page, api, "#0969da")).toBeGreaterThan(30);
    expect(await page.locator(`${api} .chart-legend`).innerText()).toContain(
      "error group new during the incident",
    );
    const db = '[data-chart="timeline-1"]';
    // Lanes: updates (2 bands, 2 dots), hb-nightly-backup (2 bands, 1 dot).
    expect(await page.locator(db).getAttribute("data-drawn")).toBe(String(2 + 2 + 2 + 1));

    // Sweep the chk-api lane until the tooltip names a new error group.
    const over = (await page.locator(`${api} .u-over`).boundingBox())!;
    const y = over.y + (over.height / 3) * 1.5;
    let tip = "";
    for (let x = over.x; x < over.x + over.width && !tip.includes("new during"); x += 3) {
      await page.mouse.move(x, y);
      if (await page.locator(`${api} .chart-tip`).isVisible()) {
        tip = await page.locator(`${api} .chart-tip`).innerText();
      }
    }
    expect(tip).toMatch(
      /^Public API orders \(chk-api\)\nnew during the incident: Timeout of <n>ms exceeded/,
    );

    expect(errors).toEqual([]);
    expect(attempted).toEqual([]);
  });

  test("the timeline table lists every entry in time order and filters by source; the groups table marks the new ones", async () => {
    const { page } = await openReport(context, file);

    const entries = await tableRows(page, "entries-0");
    expect(entries.map((r) => r[2])).toEqual([
      "error group first seen",
      "status INVESTIGATING, sent to subscribers",
      "new error group",
      "new error group",
      "error group last seen",
      "error group last seen",
      "status IDENTIFIED, sent to subscribers",
      "new error group",
      "error group last seen",
      "status MONITORING",
    ]);
    await page.selectOption(
      '[data-table="entries-0"] select[aria-label="Only Source"]',
      "Public API orders (chk-api)",
    );
    await expect
      .poll(() => page.locator('[data-table="entries-0"] .dt-status').first().innerText())
      .toBe("6 rows (filtered from 10)");

    const groups = await tableRows(page, "groups-0");
    expect(groups.map((r) => [r[0], r[6]])).toEqual([
      ["Web login page (chk-web)", "earlier"],
      ["Public API orders (chk-api)", "new"],
      ["Public API orders (chk-api)", "new"],
      ["Public API orders (chk-api)", "new"],
    ]);
    expect(await page.locator('[data-table="groups-0"] tr.new-row').count()).toBe(3);
    expect(await wrappedIds(page)).toEqual([]);
    await page.screenshot({
      path: path.join(ARTIFACTS, "test-report-incident.png"),
      fullPage: true,
    });
  });
});
