import { histogram } from "../html/chart-data";
import { errorGroupColumns } from "../html/error-group-columns";
import { type Column, chartSlot, staticTable, tableSlot, tableSpec } from "../html/table-data";
import { checkNamed } from "../shared/check-names";
import { esc, htmlPage } from "../shared/html";
import type { ErrorReportInput } from "./report-input";
import type { ErrorReportGroup } from "./report-schema";
import { leftOutLine, summaryOf, topGroups } from "./summary";

/**
 * The HTML error report: counts per check, a chart of groups by first and last seen, and
 * one table of every group (sorted, filtered and paged in the page, so 10,000 groups
 * stay fast).
 */
export function renderErrorHtml(input: ErrorReportInput, groups: ErrorReportGroup[]): string {
  const summary = summaryOf(input);
  const { shown, left } = topGroups(groups, input.top);
  const current = shown.filter((g) => g.change !== "gone");
  const chart = histogram(
    [
      {
        key: "first-seen",
        label: "new groups (first seen)",
        times: current.map((g) => Date.parse(g.firstSeen)),
      },
      {
        key: "last-seen",
        label: "groups by last seen",
        times: current.map((g) => Date.parse(g.lastSeen)),
      },
    ],
    "groups",
  );
  const columns: Column<ErrorReportGroup>[] = [
    ...errorGroupColumns<ErrorReportGroup>(input.checkNames),
    {
      key: "archived",
      label: "Archived",
      kind: "text",
      value: (g) => (g.archivedUntilNextEvent ? "yes" : "no"),
    },
  ];
  if (input.comparison) {
    columns.push({ key: "change", label: "Change", kind: "badge", value: (g) => g.change ?? "" });
  }
  if (input.details) {
    columns.push({
      key: "rca",
      label: "Root-cause analyses",
      kind: "num",
      value: (g) => g.rootCauseAnalyses?.length ?? 0,
    });
  }
  const facets = ["check", "archived", ...(input.comparison ? ["change"] : [])];
  const table = tableSpec(shown, columns, {
    sortBy: "lastSeen",
    dir: "desc",
    facets,
    ...(input.comparison
      ? { rowClass: { key: "change", values: ["new"], className: "new-row" } }
      : {}),
    empty: "No error groups.",
  });
  const checkRows = Object.entries(summary.byCheck).map(([check, count]) => [
    checkNamed(check, input.checkNames ?? {}),
    count,
  ]);
  const compared = input.comparison
    ? `<p>Compared with the report of ${esc(input.comparison.previous.generatedAt)}: <span class="badge new">${summary.new} new</span> <span class="badge present">${summary.present} still present</span> <span class="badge gone">${summary.gone} gone</span></p>`
    : "";
  const body = `<h1>Error groups</h1>
<p class="meta">Generated ${esc((input.now ?? new Date()).toISOString())} · ${summary.total.toLocaleString("en-US")} group(s) across ${input.checks.length} check(s) · times in UTC</p>
${staticTable(
  [
    { label: "Check", kind: "id" },
    { label: "Groups", kind: "num" },
  ],
  checkRows,
  "summary",
)}
${compared}
<h2>Groups over time</h2>
${chart ? chartSlot("groups-over-time", "Error groups by first seen and last seen") : `<p class="meta">No error groups to chart.</p>`}
<h2>All groups</h2>
${left > 0 ? `<p class="left-out">${esc(leftOutLine(shown.length, left))}</p>` : ""}
${tableSlot("groups")}`;
  return htmlPage({
    title: "Error groups",
    body,
    data: { tables: { groups: table }, charts: chart ? { "groups-over-time": chart } : {} },
  });
}
