import { writeCsv } from "./csv-writer";
import type { ReportSink } from "./output";

/** How one report, held whole in memory, is written in each of its forms. */
export interface DocumentForms<R> {
  /** CSV: these columns, one row per item the report lists. */
  csv: { columns: readonly string[]; rows: (report: R) => Record<string, unknown>[] };
  md: (report: R) => string;
  html: (report: R) => string;
}

/** Writes a report in `format`: JSON as it is, CSV from its rows, Markdown or HTML rendered. */
export async function writeDocumentReport<R>(
  report: R,
  format: "md" | "csv" | "json" | "html",
  sink: ReportSink,
  forms: DocumentForms<R>,
): Promise<void> {
  switch (format) {
    case "json":
      await sink.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    case "csv":
      await writeCsv(sink, forms.csv.columns, forms.csv.rows(report));
      return;
    case "md":
      await sink.write(forms.md(report));
      return;
    case "html":
      await sink.write(forms.html(report));
      return;
  }
}
