import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReportErrors } from "../../src/cli/commands/report-errors";
import { runReportHeartbeats } from "../../src/cli/commands/report-heartbeats";
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
import { HEARTBEATS } from "./support/heartbeat-seed";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.resolve("test-artifacts");
const HOUR = 3_600_000;

let running: RunningEmulator;
let dir: string;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  running = await startSeededEmulator({ heartbeats: HEARTBEATS });
  // Groups last seen at spread-out times, so the chart has several bars of different heights.
  const pages = ["login", "cart", "search", "profile", "orders", "payment"];
  const widgets = [
    "banner",
    "button",
    "form",
    "menu",
    "table",
    "toast",
    "modal",
    "video",
    "map",
    "grid",
  ];
  const results = Array.from({ length: 60 }, (_, i) => ({
    checkId: "chk-web",
    error: `Selector #${pages[i % 6]}-${widgets[Math.floor(i / 6)]} not found <script>alert(1)</script>`,
    at: `-${(i % 12) * 5 + 1}h`,
  }));
  await control(running, `/accounts/${ACCOUNT}/check-results`, { results });
  dir = await tempDir("html");
  profile = await tempDir("chromium-profile");
  await mkdir(ARTIFACTS, { recursive: true });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1200, height: 900 },
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await running?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** Opens a report with every network request blocked and recorded; only the file itself loads. */
async function open(file: string) {
  const url = pathToFileURL(file).href;
  const attempted: string[] = [];
  const page = await context.newPage();
  await page.route("**/*", (route) => {
    const requested = route.request().url();
    if (requested === url) return route.continue();
    attempted.push(requested);
    return route.abort();
  });
  page.on("request", (request) => {
    if (request.url() !== url && !attempted.includes(request.url())) attempted.push(request.url());
  });
  await page.goto(url, { waitUntil: "load" });
  return { page, attempted };
}

describe("HTML reports in headless Chromium", () => {
  test("the error report draws one bar per last-seen bucket, summing to every group, without any network request", async () => {
    const file = path.join(dir, "errors.html");
    await runReportErrors(
      { check: ["chk-web"], format: "html", out: file, progress: false },
      captureIo(apiEnv(running)).io,
    );
    const json = captureIo(apiEnv(running));
    await runReportErrors({ check: ["chk-web"], format: "json", progress: false }, json.io);
    const groups = ErrorReport.parse(JSON.parse(json.stdout())).groups;

    const { page, attempted } = await open(file);

    const label = await page.locator("svg.last-seen").getAttribute("aria-label");
    expect(label).toBe("Error groups by last seen, 1 h buckets");
    expect(groups).toHaveLength(60);
    const expectedBuckets = new Set(groups.map((g) => Math.floor(Date.parse(g.lastSeen) / HOUR)));
    const bars = page.locator("svg.last-seen rect.bar");
    expect(expectedBuckets.size).toBeGreaterThanOrEqual(6);
    expect(await bars.count()).toBe(expectedBuckets.size);
    const counts = await bars.evaluateAll((rects) =>
      rects.map((r) => Number(r.getAttribute("data-count"))),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(groups.length);
    for (const box of await bars.evaluateAll((rects) =>
      rects.map((r) => r.getBoundingClientRect().toJSON() as DOMRect),
    )) {
      expect(box.width).toBeGreaterThan(0);
      expect(box.height).toBeGreaterThan(0);
    }
    expect(await page.locator("table.groups tr.group").count()).toBe(groups.length);
    expect(await page.locator("script").count()).toBe(0);
    expect(await page.locator("table.groups").innerText()).toContain("<script>alert(<n>)</script>");
    await page.screenshot({ path: path.join(ARTIFACTS, "report-errors.png"), fullPage: true });
    expect(attempted).toEqual([]);
  });

  test("the heartbeat report draws a state timeline with one mark per event, without any network request", async () => {
    const file = path.join(dir, "heartbeats.html");
    await runReportHeartbeats(
      { check: ["hb-flappy", "hb-quiet"], since: "24h", format: "html", out: file },
      captureIo(apiEnv(running)).io,
    );

    const { page, attempted } = await open(file);

    const flappy = page.locator('svg.timeline[data-check="hb-flappy"]');
    const marks = flappy.locator("circle.event");
    expect(await marks.count()).toBe(45);
    expect(await flappy.locator('circle.event[data-state="FAILING"]').count()).toBe(22);
    const segments = flappy.locator("rect.segment");
    expect(await segments.count()).toBe(46);
    const chart = await flappy.boundingBox();
    expect(chart?.width).toBeGreaterThan(0);
    for (const box of await marks.evaluateAll((circles) =>
      circles.map((c) => c.getBoundingClientRect().toJSON() as DOMRect),
    )) {
      expect(box.width).toBeGreaterThan(0);
      expect(box.x).toBeGreaterThanOrEqual(chart!.x);
      expect(box.x + box.width).toBeLessThanOrEqual(chart!.x + chart!.width + 0.5);
    }
    const quiet = page.locator('svg.timeline[data-check="hb-quiet"]');
    expect(await quiet.locator("circle.event").count()).toBe(0);
    expect(await quiet.locator('rect.segment[data-state="UNKNOWN"]').count()).toBe(1);
    await page.screenshot({ path: path.join(ARTIFACTS, "report-heartbeats.png"), fullPage: true });
    expect(attempted).toEqual([]);
    expect((await readFile(file, "utf8")).match(/https?:\/\/[^\s"<>]+/g) ?? []).toEqual([
      "http://www.w3.org/2000/svg",
      "http://www.w3.org/2000/svg",
    ]);
  });
});
