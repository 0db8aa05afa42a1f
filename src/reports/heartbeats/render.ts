import { heartbeatStateClass } from "../../api/schemas";
import { mdTable, mdText } from "../../markdown";
import { checkNamed } from "../shared/check-names";
import { writeDocumentReport } from "../shared/document-report";
import type { ReportSink } from "../shared/output";
import { currentState } from "./lane";
import { renderHeartbeatHtml } from "./render-html";
import type { HeartbeatReport } from "./report-schema";
import { MEANING_TEXT, stateName } from "./state";
import { STATS_HEADERS, stateCounts, statsRows } from "./stats";

export const HEARTBEAT_REPORT_FORMATS = ["md", "csv", "json", "html"] as const;
export type HeartbeatReportFormat = (typeof HEARTBEAT_REPORT_FORMATS)[number];

const CSV_COLUMNS = ["checkId", "checkName", "id", "state", "timestamp", "source", "userAgent"];

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
      rows: (r) =>
        r.checks.flatMap((c) => {
          const names = r.checkNames ?? {};
          const checkName = Object.hasOwn(names, c.checkId) ? names[c.checkId] : "";
          return c.events.map((e) => ({ checkId: c.checkId, checkName, ...e }));
        }),
    },
    md: renderMarkdown,
    html: renderHeartbeatHtml,
  });
}

function renderMarkdown(report: HeartbeatReport): string {
  const to = Date.parse(report.window.to);
  const parts = [
    "# Heartbeats",
    "",
    `Window ${report.window.from} to ${report.window.to}, generated ${report.generatedAt}.`,
    "",
  ];
  // Events as the JSON holds them: oldest first, those without a readable timestamp last.
  for (const check of report.checks) {
    parts.push(`## ${mdText(checkNamed(check.checkId, report.checkNames ?? {}))}`, "");
    parts.push(`Now: ${mdText(currentState(check, to))}.`, "");
    for (const warning of check.warnings) parts.push(`> Warning: ${mdText(warning)}`, "");
    parts.push(check.stats ? mdTable(STATS_HEADERS, statsRows(check)) : "No stats returned.\n");
    parts.push(`${check.events.length} event(s) in the window: ${mdText(stateCounts(check))}.`, "");
    if (check.events.length) {
      parts.push(
        mdTable(
          ["Time", "State", "Meaning", "Source", "User agent"],
          check.events.map((e) => [
            e.timestamp ?? "(no timestamp)",
            stateName(e.state),
            MEANING_TEXT[heartbeatStateClass(e.state)],
            e.source ?? "",
            e.userAgent ?? "",
          ]),
        ),
      );
    }
  }
  return parts.join("\n");
}
