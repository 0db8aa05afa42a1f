import { readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "../../package-root";
import { OPTIONAL_PACKAGES, requirePackages } from "../../peer-packages";

/*
 * What every HTML report inlines, read from the installed package: uPlot (time series with
 * calendar axes, no adapter, a quarter of Chart.js's size) and our page script and styles.
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
