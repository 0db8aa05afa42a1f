import type { ErrorGroup } from "../../api/schemas";
import { lastSeenChart } from "../html/last-seen-chart";
import { writeCsv } from "../shared/csv-writer";
import { esc, htmlPage } from "../shared/html";
import { mdTable } from "../shared/markdown";
import type { ReportSink } from "../shared/output";
import type { CollectStats } from "./collect";
import type { ReportComparison } from "./compare";
import { ERROR_REPORT_KIND, type ErrorReport, type ErrorReportGroup } from "./report-schema";

export const ERROR_REPORT_FORMATS = ["md", "csv", "json", "html"] as const;
export type ErrorReportFormat = (typeof ERROR_REPORT_FORMATS)[number];

export interface ErrorReportInput {
  format: ErrorReportFormat;
  sink: ReportSink;
  groups: AsyncIterable<ErrorGroup>;
  stats: CollectStats;
  checks: readonly string[];
  details: boolean;
  comparison?: { previous: ErrorReport; compare: ReportComparison };
  now?: Date;
}

/** What was written, for the command's closing line on stderr. */
export interface ErrorReportOutcome {
  total: number;
  duplicatesSkipped: number;
  changes?: { new: number; present: number; gone: number };
}

const CSV_COLUMNS = [
  "checkId",
  "id",
  "errorHash",
  "cleanedErrorMessage",
  "rawErrorMessage",
  "firstSeen",
  "lastSeen",
  "archivedUntilNextEvent",
];

/** Writes the report in the chosen format. CSV and JSON stream; Markdown and HTML sort, so they hold the groups. */
export async function writeErrorReport(input: ErrorReportInput): Promise<ErrorReportOutcome> {
  const rows = withChanges(input);
  switch (input.format) {
    case "csv":
      await writeCsv(input.sink, csvColumns(input), rows);
      break;
    case "json":
      await writeJson(input, rows);
      break;
    case "md":
      await input.sink.write(renderMarkdown(input, await collectAll(rows)));
      break;
    case "html":
      await input.sink.write(renderHtml(input, await collectAll(rows)));
      break;
  }
  const outcome: ErrorReportOutcome = {
    total: sum(input.stats.byCheck),
    duplicatesSkipped: input.stats.duplicatesSkipped,
  };
  if (input.comparison) outcome.changes = { ...input.comparison.compare.counts };
  return outcome;
}

function csvColumns(input: ErrorReportInput): string[] {
  const columns = [...CSV_COLUMNS];
  if (input.comparison) columns.push("change");
  if (input.details) columns.push("rootCauseAnalyses");
  return columns;
}

async function* withChanges(input: ErrorReportInput): AsyncGenerator<ErrorReportGroup> {
  const compare = input.comparison?.compare;
  for await (const group of input.groups) yield compare ? compare.classify(group) : group;
  if (compare) yield* compare.gone();
}

async function collectAll<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function summaryOf(input: ErrorReportInput): ErrorReport["summary"] {
  const summary: ErrorReport["summary"] = {
    total: sum(input.stats.byCheck),
    byCheck: input.stats.byCheck,
    duplicatesSkipped: input.stats.duplicatesSkipped,
  };
  if (input.comparison) Object.assign(summary, input.comparison.compare.counts);
  return summary;
}

/** Writes the JSON report one group at a time; the summary goes last, once it is known. */
async function writeJson(input: ErrorReportInput, rows: AsyncIterable<ErrorReportGroup>) {
  const head = {
    kind: ERROR_REPORT_KIND,
    version: 1,
    generatedAt: (input.now ?? new Date()).toISOString(),
    checks: input.checks,
    details: input.details,
    sinceReport: input.comparison ? { generatedAt: input.comparison.previous.generatedAt } : null,
  };
  const opening = JSON.stringify(head);
  await input.sink.write(`${opening.slice(0, -1)},"groups":[`);
  let first = true;
  for await (const row of rows) {
    await input.sink.write(`${first ? "\n" : ",\n"}${JSON.stringify(row)}`);
    first = false;
  }
  await input.sink.write(`\n],"summary":${JSON.stringify(summaryOf(input))}}\n`);
}

function byLastSeenDesc(a: ErrorReportGroup, b: ErrorReportGroup): number {
  return (Date.parse(b.lastSeen) || 0) - (Date.parse(a.lastSeen) || 0);
}

function shorten(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function renderMarkdown(input: ErrorReportInput, groups: ErrorReportGroup[]): string {
  groups.sort(byLastSeenDesc);
  const summary = summaryOf(input);
  const lines = [
    "# Error groups",
    "",
    `Generated ${(input.now ?? new Date()).toISOString()} for ${input.checks.length} check(s): ${summary.total} group(s).`,
    "",
    mdTable(
      ["Check", "Groups"],
      Object.entries(summary.byCheck).map(([check, count]) => [check, count]),
    ),
  ];
  if (input.comparison) {
    lines.push(
      `Compared with the report of ${input.comparison.previous.generatedAt}: ${summary.new} new, ${summary.present} still present, ${summary.gone} gone.`,
      "",
    );
  }
  const headers = ["Check", "Group", "Message", "First seen", "Last seen", "Archived"];
  if (input.comparison) headers.push("Change");
  if (input.details) headers.push("Root-cause analyses");
  const rows = groups.map((g) => {
    const row: unknown[] = [
      g.checkId,
      g.id,
      shorten(g.cleanedErrorMessage),
      g.firstSeen,
      g.lastSeen,
      g.archivedUntilNextEvent ? "yes" : "no",
    ];
    if (input.comparison) row.push(g.change ?? "");
    if (input.details) row.push(g.rootCauseAnalyses?.length ?? 0);
    return row;
  });
  lines.push(groups.length ? mdTable(headers, rows) : "No error groups.\n");
  return lines.join("\n");
}

function renderHtml(input: ErrorReportInput, groups: ErrorReportGroup[]): string {
  groups.sort(byLastSeenDesc);
  const summary = summaryOf(input);
  const times = groups
    .filter((g) => g.change !== "gone")
    .map((g) => Date.parse(g.lastSeen))
    .filter(Number.isFinite);
  const checkRows = Object.entries(summary.byCheck)
    .map(
      ([check, count]) =>
        `<tr><td><code>${esc(check)}</code></td><td class="num">${count}</td></tr>`,
    )
    .join("");
  const compared = input.comparison
    ? `<p>Compared with the report of ${esc(input.comparison.previous.generatedAt)}: <span class="badge new">${summary.new} new</span> <span class="badge present">${summary.present} still present</span> <span class="badge gone">${summary.gone} gone</span></p>`
    : "";
  const groupRows = groups
    .map(
      (g) =>
        `<tr class="group"${g.change ? ` data-change="${esc(g.change)}"` : ""}><td><code>${esc(g.checkId)}</code></td><td><code>${esc(g.id)}</code></td><td>${esc(g.cleanedErrorMessage)}</td><td>${esc(g.firstSeen)}</td><td>${esc(g.lastSeen)}</td><td>${g.archivedUntilNextEvent ? "yes" : "no"}</td>${input.comparison ? `<td class="${esc(g.change ?? "")}">${esc(g.change ?? "")}</td>` : ""}${input.details ? `<td class="num">${g.rootCauseAnalyses?.length ?? 0}</td>` : ""}</tr>`,
    )
    .join("\n");
  const body = `<h1>Error groups</h1>
<p class="meta">Generated ${esc((input.now ?? new Date()).toISOString())} · ${summary.total} group(s) across ${input.checks.length} check(s)</p>
<table class="summary"><thead><tr><th>Check</th><th>Groups</th></tr></thead><tbody>${checkRows}</tbody></table>
${compared}
<h2>Groups by last seen</h2>
${lastSeenChart(times)}
<h2>All groups</h2>
<table class="groups"><thead><tr><th>Check</th><th>Group</th><th>Message</th><th>First seen</th><th>Last seen</th><th>Archived</th>${input.comparison ? "<th>Change</th>" : ""}${input.details ? "<th>Root-cause analyses</th>" : ""}</tr></thead>
<tbody>
${groupRows}
</tbody></table>`;
  return htmlPage("Error groups", body);
}
