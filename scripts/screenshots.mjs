// Renders every HTML report from the emulator's demo data and takes a full-page screenshot
// of each in the packaged headless Chromium, for a person to look at:
//
//   npm run screenshots        # builds first; writes test-artifacts/*.html and *.png
//
// Reports: errors of the demo checks, errors of a check with 10,000 groups, heartbeats
// over 7 days, the incident report of every demo incident, and the inc-api-errors chart
// with its tooltip showing.
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchChromium } from "../test/support/chromium.mjs";

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist", "src");
const out = path.join(root, "test-artifacts");
const { startEmulator } = require(path.join(dist, "emulator"));
const { runReportErrors } = require(path.join(dist, "cli", "commands", "report-errors.js"));
const { runReportHeartbeats } = require(path.join(dist, "cli", "commands", "report-heartbeats.js"));
const { runReportIncident } = require(path.join(dist, "cli", "commands", "report-incident.js"));

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

const browser = await launchChromium();
const running = await startEmulator({ port: 0, seed: "demo" });
try {
  await mkdir(out, { recursive: true });
  running.emulator.control.generateErrorGroups("acct-demo", "chk-bulk-import", 10_000);
  const io = {
    stdout: quiet(),
    stderr: quiet(),
    cwd: root,
    env: { MONITORING_API_URL: running.url, MONITORING_API_KEY: running.demo.apiKey },
  };
  const file = (name) => path.join(out, `${name}.html`);
  await runReportErrors(
    {
      check: ["chk-api", "chk-checkout", "chk-web"],
      format: "html",
      out: file("report-errors"),
      progress: false,
    },
    io,
  );
  await runReportErrors(
    {
      check: ["chk-bulk-import"],
      format: "html",
      out: file("report-errors-10000"),
      progress: false,
    },
    io,
  );
  await runReportHeartbeats(
    {
      check: ["hb-nightly-backup", "hb-billing-sync"],
      since: "7d",
      format: "html",
      out: file("report-heartbeats"),
    },
    io,
  );
  await runReportIncident(
    {
      ids: ["inc-api-errors", "inc-checkout-latency", "inc-db-maintenance", "inc-login-failures"],
      dir: "incidents",
      margin: "1h",
      format: "html",
      out: file("report-incident"),
    },
    io,
  );

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  for (const name of [
    "report-errors",
    "report-errors-10000",
    "report-heartbeats",
    "report-incident",
  ]) {
    const page = await context.newPage();
    const errors = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(pathToFileURL(file(name)).href);
    await page.waitForSelector("html[data-ready]", { state: "attached" });
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
    if (name === "report-incident") {
      // The first incident's chart with the tooltip over the first new error group.
      const chart = page.locator('[data-chart="timeline-0"]');
      await chart.scrollIntoViewIfNeeded();
      const over = await chart.locator(".u-over").boundingBox();
      const lanes = 3;
      const y = over.y + (over.height / lanes) * 1.5;
      for (let x = over.x; x < over.x + over.width; x += 2) {
        await page.mouse.move(x, y);
        if (await chart.locator(".chart-tip").isVisible()) {
          const text = await chart.locator(".chart-tip").innerText();
          if (text.includes("new during the incident")) break;
        }
      }
      await chart.screenshot({ path: path.join(out, "report-incident-tooltip.png") });
    }
    console.log(`${name}.png${errors.length ? ` with page errors: ${errors.join("; ")}` : ""}`);
    if (errors.length) process.exitCode = 1;
  }
} finally {
  await browser.close();
  await running.close();
}
