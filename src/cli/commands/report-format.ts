import { OPTIONAL_PACKAGES, requirePackages } from "../../peer-packages";
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

/**
 * Refuses, before any call to the API, a format whose optional package the project has not
 * installed (csv-stringify for CSV, uPlot for HTML), naming what to install.
 */
export function requireFormatPackages(format: ReportFormat): void {
  if (format === "csv") requirePackages("CSV output", OPTIONAL_PACKAGES.csv);
  if (format === "html") requirePackages("An HTML report", OPTIONAL_PACKAGES.html);
}
