import type { SuccessRatioPeriod } from "../../api/schemas";
import { heartbeatTimeline } from "../html/heartbeat-timeline";
import { writeCsv } from "../shared/csv-writer";
import { esc, htmlPage } from "../shared/html";
import { mdTable } from "../shared/markdown";
import type { ReportSink } from "../shared/output";
import type { HeartbeatReport, HeartbeatReportCheck } from "./report-schema";

export const HEARTBEAT_REPORT_FORMATS = ["md", "csv", "json", "html"] as const;
export type HeartbeatReportFormat = (typeof HEARTBEAT_REPORT_FORMATS)[number];

const CSV_COLUMNS = ["checkId", "id", "state", "timestamp", "source", "userAgent"];

/**
 * Writes a heartbeat report. CSV holds one row per event (a spreadsheet's shape); the
 * success-ratio stats are in the JSON, Markdown and HTML forms.
 */
export async function writeHeartbeatReport(
  report: HeartbeatReport,
  format: HeartbeatReportFormat,
  sink: ReportSink,
): Promise<void> {
  switch (format) {
    case "json":
      await sink.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    case "csv":
      await writeCsv(
        sink,
        CSV_COLUMNS,
        report.checks.flatMap((c) => c.events.map((e) => ({ checkId: c.checkId, ...e }))),
      );
      return;
    case "md":
      await sink.write(renderMarkdown(report));
      return;
    case "html":
      await sink.write(renderHtml(report));
      return;
  }
}

/** The API's success ratios are percentages (0 to 100), shown as they come. */
function percent(ratio: number | undefined): string {
  return ratio === undefined ? "n/a" : `${ratio.toFixed(2)} %`;
}

function trend(period: SuccessRatioPeriod | undefined): string {
  if (!period) return "n/a";
  const delta = period.successRatio.currentPeriod - period.successRatio.previousPeriod;
  const points = delta.toFixed(2);
  return delta === 0 ? "±0.00 pt" : `${delta > 0 ? "+" : ""}${points} pt`;
}

function statsRows(check: HeartbeatReportCheck): unknown[][] {
  const periods: [string, SuccessRatioPeriod | undefined][] = [
    ["24 h", check.stats?.last24Hours],
    ["7 d", check.stats?.last7Days],
  ];
  return periods.map(([label, p]) => [
    label,
    percent(p?.successRatio.currentPeriod),
    percent(p?.successRatio.previousPeriod),
    trend(p),
    p?.totalEntitiesCurrentPeriod ?? "n/a",
  ]);
}

const STATS_HEADERS = ["Period", "Success (current)", "Success (previous)", "Change", "Entities"];

function stateCounts(check: HeartbeatReportCheck): string {
  const counts = new Map<string, number>();
  for (const e of check.events) counts.set(e.state, (counts.get(e.state) ?? 0) + 1);
  return [...counts.entries()].map(([s, n]) => `${n} ${s}`).join(", ") || "none";
}

function renderMarkdown(report: HeartbeatReport): string {
  const parts = [
    "# Heartbeats",
    "",
    `Window ${report.window.from} to ${report.window.to}, generated ${report.generatedAt}.`,
    "",
  ];
  for (const check of report.checks) {
    parts.push(`## ${check.checkId}`, "");
    parts.push(check.stats ? mdTable(STATS_HEADERS, statsRows(check)) : "No stats returned.\n");
    parts.push(`${check.events.length} event(s) in the window: ${stateCounts(check)}.`, "");
    if (check.events.length) {
      parts.push(
        mdTable(
          ["Time", "State", "Source", "User agent"],
          [...check.events].reverse().map((e) => [e.timestamp, e.state, e.source, e.userAgent]),
        ),
      );
    }
  }
  return parts.join("\n");
}

function renderHtml(report: HeartbeatReport): string {
  const from = new Date(report.window.from);
  const to = new Date(report.window.to);
  const sections = report.checks.map((check) => {
    const stats = check.stats
      ? `<table class="stats"><thead><tr>${STATS_HEADERS.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${statsRows(
          check,
        )
          .map(
            (row) =>
              `<tr>${row.map((cell, i) => `<td${i ? ' class="num"' : ""}>${esc(cell)}</td>`).join("")}</tr>`,
          )
          .join("")}</tbody></table>`
      : `<p class="meta">No stats returned.</p>`;
    const events = [...check.events]
      .reverse()
      .map(
        (e) =>
          `<tr class="event"><td>${esc(e.timestamp)}</td><td>${esc(e.state)}</td><td>${esc(e.source)}</td><td><code>${esc(e.userAgent)}</code></td></tr>`,
      )
      .join("\n");
    return `<section class="heartbeat" data-check="${esc(check.checkId)}">
<h2>${esc(check.checkId)}</h2>
${stats}
<p>${check.events.length} event(s) in the window: ${esc(stateCounts(check))}.</p>
${heartbeatTimeline(check.events, from, to, check.checkId)}
${check.events.length ? `<table class="events"><thead><tr><th>Time</th><th>State</th><th>Source</th><th>User agent</th></tr></thead><tbody>\n${events}\n</tbody></table>` : ""}
</section>`;
  });
  const body = `<h1>Heartbeats</h1>
<p class="meta">Window ${esc(report.window.from)} to ${esc(report.window.to)} · generated ${esc(report.generatedAt)}</p>
${sections.join("\n")}`;
  return htmlPage("Heartbeats", body);
}
