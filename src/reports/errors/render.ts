import { writeCsv } from "../shared/csv-writer";
import type { ErrorReportInput } from "./report-input";
import { ERROR_REPORT_KIND, type ErrorReportGroup } from "./report-schema";
import { sum, summaryOf } from "./summary";

/** What was written, for the command's closing line on stderr. */
export interface ErrorReportOutcome {
  total: number;
  duplicatesSkipped: number;
  changes?: { new: number; present: number; gone: number };
}

const CSV_COLUMNS = [
  "checkId",
  "checkName",
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
      await writeCsv(input.sink, csvColumns(input), withCheckNames(input, rows));
      break;
    case "json":
      await writeJson(input, rows);
      break;
    // Loaded when chosen, so a CSV or JSON export does not load them.
    case "md": {
      const { renderErrorMarkdown } = await import("./render-markdown.js");
      await input.sink.write(renderErrorMarkdown(input, await collectAll(rows)));
      break;
    }
    case "html": {
      const { renderErrorHtml } = await import("./render-html.js");
      await input.sink.write(renderErrorHtml(input, await collectAll(rows)));
      break;
    }
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

/** CSV rows with the check's name beside its id (empty when the service gives none). */
async function* withCheckNames(
  input: ErrorReportInput,
  rows: AsyncIterable<ErrorReportGroup>,
): AsyncGenerator<ErrorReportGroup & { checkName: string }> {
  const names = input.checkNames ?? {};
  for await (const row of rows) {
    yield {
      ...row,
      checkName: Object.hasOwn(names, row.checkId) ? (names[row.checkId] ?? "") : "",
    };
  }
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

/** Writes the JSON report one group at a time; the summary goes last, once it is known. */
async function writeJson(input: ErrorReportInput, rows: AsyncIterable<ErrorReportGroup>) {
  const head = {
    kind: ERROR_REPORT_KIND,
    version: 1,
    generatedAt: (input.now ?? new Date()).toISOString(),
    checks: input.checks,
    checkNames: input.checkNames ?? {},
    details: input.details,
    sinceReport: input.comparison ? { generatedAt: input.comparison.previous.generatedAt } : null,
  };
  const opening = JSON.stringify(head);
  await input.sink.write(`${opening.slice(0, -1)},"groups":[`);
  let first = true;
  try {
    for await (const row of rows) {
      await input.sink.write(`${first ? "\n" : ",\n"}${JSON.stringify(row)}`);
      first = false;
    }
  } catch (error) {
    // No summary: a report cut short must not pass for a complete one (--since-report
    // refuses it). The sink may be what failed, so closing is best effort.
    const member = input.describeError?.(error) ?? {
      message: error instanceof Error ? error.message : String(error),
    };
    await input.sink.write(`\n],"error":${JSON.stringify(member)}}\n`).catch(() => {});
    throw error;
  }
  await input.sink.write(`\n],"summary":${JSON.stringify(summaryOf(input))}}\n`);
}
