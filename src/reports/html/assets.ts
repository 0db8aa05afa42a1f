import { readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "../../package-root";
import { OPTIONAL_PACKAGES, requirePackages } from "../../peer-packages";

/*
 * What every HTML report inlines: uPlot (the charting library) and our own small page
 * script and style sheet. They are read from the installed package when a report is
 * rendered, so a report works the same from `src/` under vitest, from `dist/`, and from
 * node_modules when incident-sync is a dependency (package.json `files` lists the folder).
 *
 * Why uPlot rather than Chart.js: it is made for time series, draws labelled,
 * calendar-aware time axes without a date adapter, renders to canvas fast enough for
 * thousands of points, and is about 50 KB minified against Chart.js's ~200 KB plus an
 * adapter, which every self-contained report carries. It is MIT licensed and maintained
 * (leeoniya/uPlot).
 */

/** The browser file under `src/reports/html/browser/` that runs before uPlot loads. */
const BEFORE_UPLOT = "report-locale.js";
/** The browser files under `src/reports/html/browser/`, in the order the page runs them after uPlot. */
const PAGE_SCRIPTS = ["report-table.js", "report-charts.js", "report-boot.js"] as const;

export interface PageAssets {
  /** Inline scripts, each its own `<script>` element (and CSP hash). */
  readonly scripts: readonly string[];
  /** One style sheet: uPlot's and ours. */
  readonly style: string;
}

let cached: PageAssets | undefined;

/** Reads the assets once per process. */
export function pageAssets(): PageAssets {
  cached ??= loadAssets();
  return cached;
}

function loadAssets(): PageAssets {
  requirePackages("An HTML report", OPTIONAL_PACKAGES.html);
  const browser = path.join(packageRoot(), "src", "reports", "html", "browser");
  const read = (file: string) => readFileSync(file, "utf8");
  const uplot = read(require.resolve("uplot/dist/uPlot.iife.min.js"));
  const uplotCss = read(require.resolve("uplot/dist/uPlot.min.css"));
  const scripts = [
    read(path.join(browser, BEFORE_UPLOT)),
    uplot,
    ...PAGE_SCRIPTS.map((name) => read(path.join(browser, name))),
  ];
  // Inlined as is: a closing tag inside a script would end its element early.
  if (scripts.some((script) => /<\/script/i.test(script))) {
    throw new Error("An HTML report script contains </script> and cannot be inlined.");
  }
  return {
    scripts,
    style: `${uplotCss}\n${read(path.join(browser, "report.css"))}`,
  };
}
