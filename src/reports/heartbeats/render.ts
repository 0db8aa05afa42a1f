import { writeDocumentReport } from "../shared/document-report";
import { mdTable } from "../shared/markdown";
import type { ReportSink } from "../shared/output";
import { renderHeartbeatHtml } from "./render-html";
import type { HeartbeatReport } from "./report-schema";
import { STATS_HEADERS, stateCounts, statsRows } from "./stats";

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
  await writeDocumentReport(report, format, sink, {
    csv: {
      columns: CSV_COLUMNS,
      rows: (r) => r.checks.flatMap((c) => c.events.map((e) => ({ checkId: c.checkId, ...e }))),
    },
    md: renderMarkdown,
    html: renderHeartbeatHtml,
  });
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
