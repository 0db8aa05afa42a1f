import { Command, InvalidArgumentError } from "commander";
import { SETTINGS } from "../../settings/catalog";
import { type ApiFlags, addApiOptions } from "../api-options";
import { formatOption } from "../formats";
import { action } from "../run-command";
import {
  REPORT_FORMATS,
  type ReportFormat,
  rendererFormat,
  requireFormatPackages,
} from "./report-format";

interface ReportErrorsFlags extends ApiFlags {
  check?: string[];
  dir: string;
  format: ReportFormat;
  out?: string;
  details?: boolean;
  sinceReport?: string;
  top?: number | "all";
  progress: boolean;
}

/** Parses `--top`: a positive whole number, or `all`. */
function parseTop(value: string): number | "all" {
  if (value === "all") return "all";
  if (!/^[1-9]\d*$/.test(value)) {
    throw new InvalidArgumentError("Use a positive whole number of groups, or all.");
  }
  return Number(value);
}

/** `incident-sync report errors`; the work is in `./report-errors`, loaded when it runs. */
export function reportErrorsCommand(): Command {
  const command = new Command("errors")
    .description("Export every error group of one or more checks, reading all pages concurrently.")
    .option(
      "--check <id...>",
      "check id; repeat or list several (default: every check the definitions list in evidence.checks)",
    )
    .option(
      "--dir <dir>",
      "definitions directory, whose evidence.checks are reported when no --check is given",
      SETTINGS.definitionsDir.default,
    )
    .addOption(formatOption(REPORT_FORMATS, "markdown"))
    .option("--out <file>", "write to this file instead of stdout (replaced only on success)")
    .option("--details", "fetch each group's full record, including rootCauseAnalyses")
    .option(
      "--top <n>",
      "markdown and html: only the n most recently seen groups, with a line saying how many more (all for every group; default 100 for markdown, all for html)",
      parseTop,
    )
    .option(
      "--since-report <file>",
      "compare with an earlier `--format json` report: mark groups new, present or gone",
    )
    .option("--no-progress", "never draw progress bars (they are drawn only when stderr is a TTY)");
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
Formats:
  markdown  Markdown table, newest last-seen first, the 100 most recent unless --top says
            otherwise (for a pull request or an issue); or md
  csv       one row per group, streamed (for a spreadsheet)
  json      the report schema, streamed; the input of --since-report
  html      a self-contained page: a chart of groups by first and last seen, and a table
            of every group that sorts, filters and pages (works offline)

CSV and JSON stream, so memory stays flat on large exports. Markdown and HTML sort the
groups and so hold them all; --since-report holds the earlier report.

Failures: nothing reaches stdout before the first page of every check has arrived, so an
unknown check or a wrong key prints an error document in the chosen format instead of a
report: {"error": {…}} for JSON, a one-column "error" table for CSV, a short block for
Markdown and HTML. If a later page fails, JSON is closed with an "error" member instead
of "summary", CSV holds only the whole rows written so far, and stderr says the output is
incomplete; exit 1 either way. --out is all or nothing: the file appears only on success.

--details reads one group per request: at the default 600 requests per minute, 10,000
groups take about 17 minutes (the progress bar shows the time left). Raise --rate-limit
only as far as the service allows.

Without --check, the report covers every check the definitions list in evidence.checks
(--dir, default incidents); with none listed, it is an error in the chosen format.

Exit codes: 0 written, 1 error (bad options, auth, network, unreadable --since-report).

Examples:
  $ incident-sync report errors --format json --out evidence.json
  $ incident-sync report errors --check chk-api --check chk-web --format csv --out groups.csv
  $ incident-sync report errors --check chk-api --format json --out today.json
  $ incident-sync report errors --check chk-api --since-report yesterday.json --format md
  $ incident-sync report errors --check chk-api --format md --top 20
  $ incident-sync report errors --check chk-api --details --rate-limit 1200 --format html --out errors.html
`,
    )
    .action(
      action<ReportErrorsFlags>(async (io, { progress, ...flags }) => {
        requireFormatPackages(flags.format);
        const { runReportErrors } = await import("./report-errors.js");
        // --no-progress forces the bars off; otherwise the command decides by the TTY.
        return runReportErrors(
          { ...flags, format: rendererFormat(flags.format), ...(progress ? {} : { progress }) },
          io,
        );
      }),
    );
}
