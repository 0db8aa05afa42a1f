import { mdCode, mdTable, mdText } from "../../markdown";
import { utcText } from "../heartbeats/lane";
import { type CheckNames, checkNamed } from "../shared/check-names";
import { writeDocumentReport } from "../shared/document-report";
import type { ReportSink } from "../shared/output";
import { renderIncidentHtml } from "./render-html";
import type { IncidentReport, IncidentReportIncident } from "./report-schema";
import {
  checkSummary,
  entryWhat,
  headline,
  heartbeatSummary,
  incidentTitle,
  sourceNamed,
  spanText,
  windowText,
} from "./summary";

export const INCIDENT_REPORT_FORMATS = ["md", "csv", "json", "html"] as const;
export type IncidentReportFormat = (typeof INCIDENT_REPORT_FORMATS)[number];

const CSV_COLUMNS = ["incidentId", "at", "kind", "source", "state", "ref", "notified", "text"];

/** Writes an incident report; CSV holds one row per timeline entry of every incident. */
export async function writeIncidentReport(
  report: IncidentReport,
  format: IncidentReportFormat,
  sink: ReportSink,
): Promise<void> {
  await writeDocumentReport(report, format, sink, {
    csv: {
      columns: CSV_COLUMNS,
      rows: (r) =>
        r.incidents.flatMap((incident) =>
          incident.timeline.map((entry) => ({ incidentId: incident.id, ...entry })),
        ),
    },
    md: renderMarkdown,
    html: renderIncidentHtml,
  });
}

function renderIncidentMarkdown(
  incident: IncidentReportIncident,
  now: number,
  names: CheckNames,
): string {
  const title = incidentTitle(incident);
  const evidence = [
    ...incident.checks.map((c) => [checkNamed(c.checkId, names), "check", checkSummary(c)]),
    ...incident.heartbeats.map((h) => [
      checkNamed(h.checkId, names),
      "heartbeat",
      heartbeatSummary(h, incident),
    ]),
  ];
  const parts = [
    `## ${mdText(title)}`,
    "",
    mdText(headline(incident)),
    "",
    mdText(`${spanText(incident, now)} ${windowText(incident)}`),
    "",
    evidence.length
      ? mdTable(["Evidence", "Kind", "In the window"], evidence)
      : "No evidence: the definition lists no `evidence` and none was given with --heartbeat or --check.\n",
    "### Timeline (UTC)",
    "",
    incident.timeline.length
      ? mdTable(
          ["Time", "Source", "What", "Detail"],
          incident.timeline.map((e) => [
            utcText(Date.parse(e.at)).replace(" UTC", ""),
            sourceNamed(e, incident, names),
            entryWhat(e),
            e.kind.startsWith("error-group") ? mdCode(e.text) : e.text,
          ]),
        )
      : "Nothing happened in the window.\n",
  ];
  const groups = incident.checks.flatMap((c) => c.groups);
  if (groups.length) {
    parts.push(
      "### Error groups",
      "",
      mdTable(
        ["Check", "Group", "Message", "First seen", "Last seen", "During the incident"],
        groups.map((g) => [
          checkNamed(g.checkId, names),
          g.id,
          mdCode(g.cleanedErrorMessage),
          g.firstSeen,
          g.lastSeen,
          g.newDuringIncident ? "new" : "seen before",
        ]),
      ),
    );
  }
  return parts.join("\n");
}

function renderMarkdown(report: IncidentReport): string {
  const now = Date.parse(report.generatedAt);
  const names = report.checkNames ?? {};
  return [
    "# Incident report",
    "",
    `Generated ${report.generatedAt} for ${mdText(report.incidents.map(incidentTitle).join(", "))}. Times in UTC.`,
    "",
    ...report.incidents.map((incident) => renderIncidentMarkdown(incident, now, names)),
  ].join("\n");
}
