import type { ErrorReportFormat, HeartbeatReportFormat, IncidentReportFormat } from "../../reports";

/** The formats of `report …`, in the CLI's vocabulary. */
export const REPORT_FORMATS = ["markdown", "csv", "json", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The report renderers spell Markdown `md`. */
export function rendererFormat(
  format: ReportFormat,
): ErrorReportFormat & HeartbeatReportFormat & IncidentReportFormat {
  return format === "markdown" ? "md" : format;
}
