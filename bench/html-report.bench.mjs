// Opens the HTML error report of 10,000 groups in the packaged headless Chromium and
// measures, as medians of several runs in one browser:
//   - load: from navigation to the page script having drawn the chart and the first page
//     of the table (`<html data-ready>`);
//   - sort: a click on the "Group" header until the table shows the new order;
//   - filter: typing a group id until the table shows that one row;
// against a peer measured in the same run: the same 10,000 groups as one plain,
// script-free HTML table (what the report was before), loaded to `load`.
// The render (`report errors --format html`, read from the emulator) is timed too.
//
//   npm run build && npx node bench/run.mjs html-report
//   npx node bench/html-report.bench.mjs --groups 10000 --runs 5
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium } from "../test/support/chromium.mjs";
import { median } from "./support/median.mjs";

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist", "src");
const { startEmulator } = require(path.join(dist, "emulator"));
const { runReportErrors } = require(path.join(dist, "cli", "commands", "report-errors.js"));

const { values } = parseArgs({ options: { groups: { type: "string" }, runs: { type: "string" } } });
const GROUPS = Number(values.groups ?? 10_000);
const RUNS = Number(values.runs ?? 5);

/** Resolves after the next frame: layout and paint of what was loaded have happened. */
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

const quiet = () => new Writable({ write: (_c, _e, done) => done() });
const esc = (text) =>
  String(text ?? "").replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  );

/** The peer: every group as a row of one static table, no script (the report before). */
function plainTable(groups) {
  const rows = groups
    .map(
      (g) =>
        `<tr><td><code>${esc(g.checkId)}</code></td><td><code>${esc(g.id)}</code></td><td>${esc(g.cleanedErrorMessage)}</td><td>${esc(g.firstSeen)}</td><td>${esc(g.lastSeen)}</td><td>no</td></tr>`,
    )
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>plain</title></head><body><table><tbody>\n${rows}\n</tbody></table><script type="application/json">ready</script></body></html>`;
}

const dir = await mkdtemp(path.join(tmpdir(), "incident-sync-html-bench-"));
const running = await startEmulator({
  port: 0,
  seed: { accounts: [{ id: "acct-bench", apiKeys: ["bench-key-0123456789"] }] },
});
const browser = await launchChromium();
try {
  running.emulator.control.generateErrorGroups("acct-bench", "chk-bench", GROUPS);
  const io = {
    stdout: quiet(),
    stderr: quiet(),
    cwd: root,
    env: { MONITORING_API_URL: running.url, MONITORING_API_KEY: "bench-key-0123456789" },
  };
  const report = path.join(dir, "errors.html");
  const renders = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await runReportErrors(
      { check: ["chk-bench"], format: "html", out: report, progress: false },
      io,
    );
    renders.push(performance.now() - start);
  }
  const json = path.join(dir, "errors.json");
  await runReportErrors({ check: ["chk-bench"], format: "json", out: json, progress: false }, io);
  const groups = JSON.parse(await readFile(json, "utf8")).groups;
  const plain = path.join(dir, "plain.html");
  await writeFile(plain, plainTable(groups));
  const target = groups[Math.floor(groups.length / 2)].id;

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const status = '[data-table="groups"] .dt-status';
  const times = { load: [], sort: [], filter: [], plain: [] };
  for (let run = 0; run <= RUNS; run++) {
    const page = await context.newPage();
    let start = performance.now();
    await page.goto(pathToFileURL(report).href);
    await page.waitForSelector("html[data-ready]", { state: "attached" });
    await page.evaluate(nextFrame);
    const load = performance.now() - start;

    start = performance.now();
    await page.click('[data-table="groups"] th:has-text("Group")');
    await page.waitForSelector('[data-table="groups"] th[aria-sort="ascending"]');
    const sort = performance.now() - start;

    start = performance.now();
    await page.fill('[data-table="groups"] input[type="search"]', target);
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.startsWith("1 row "),
      status,
    );
    // The input waits 120 ms for typing to pause before it filters; that is not work.
    const filter = performance.now() - start - 120;
    await page.close();

    const peer = await context.newPage();
    start = performance.now();
    await peer.goto(pathToFileURL(plain).href, { waitUntil: "load" });
    await peer.evaluate(nextFrame);
    const plainLoad = performance.now() - start;
    await peer.close();

    if (run === 0) continue; // warm-up
    times.load.push(load);
    times.sort.push(sort);
    times.filter.push(filter);
    times.plain.push(plainLoad);
  }
  const result = {
    groups: GROUPS,
    runs: RUNS,
    node: process.version,
    browser: browser.version(),
    htmlBytes: (await readFile(report)).length,
    plainBytes: (await readFile(plain)).length,
    medianMs: {
      render: median(renders),
      load: median(times.load),
      sort: median(times.sort),
      filter: median(times.filter),
      plainLoad: median(times.plain),
    },
    raw: { renders, ...times },
  };
  const fmt = (ms) => `${Math.round(ms).toLocaleString("en-US")} ms`;
  console.log(
    `HTML error report, ${GROUPS.toLocaleString("en-US")} groups, medians of ${RUNS} runs`,
  );
  console.log(`  render (report errors --format html):  ${fmt(result.medianMs.render)}`);
  console.log(
    `  load to charts and first page drawn:   ${fmt(result.medianMs.load)} (${(result.htmlBytes / 1e6).toFixed(2)} MB)`,
  );
  console.log(`  sort by group id:                      ${fmt(result.medianMs.sort)}`);
  console.log(`  filter to one group:                   ${fmt(result.medianMs.filter)}`);
  console.log(
    `  peer: plain 10,000-row table, load:    ${fmt(result.medianMs.plainLoad)} (${(result.plainBytes / 1e6).toFixed(2)} MB)`,
  );
  console.log(
    `  load / peer:                           ${(result.medianMs.load / result.medianMs.plainLoad).toFixed(2)}x`,
  );
  const out = path.join(root, "bench", "results");
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, "html-report.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await browser.close();
  await running.close();
  await rm(dir, { recursive: true, force: true });
}
