import { Command, Option } from "commander";
import { createClient } from "../../api";
import {
  collectErrorGroups,
  ERROR_REPORT_FORMATS,
  type ErrorReportFormat,
  openSink,
  ReportComparison,
  readPreviousReport,
  writeErrorReport,
} from "../../reports";
import { type ApiFlags, addApiOptions, redactKey, resolveApiConnection } from "../api-options";
import { type CommandIo, processIo } from "./report-io";
import { errorExportProgress, type ProgressDisplay } from "./report-progress";

export interface ReportErrorsOptions extends ApiFlags {
  check: string[];
  format: ErrorReportFormat;
  out?: string;
  details?: boolean;
  sinceReport?: string;
  /** Draw progress bars; defaults to whether stderr is a TTY. */
  progress?: boolean;
}

const PAGE_SIZE = 100;

/**
 * Exports the error groups of the given checks. Resolves to the exit code: 0 on
 * success; failures throw, and the CLI turns them into exit code 1.
 */
export async function runReportErrors(
  options: ReportErrorsOptions,
  io: CommandIo = processIo(),
): Promise<number> {
  const connection = resolveApiConnection(options, io.env);
  const previous = options.sinceReport ? await readPreviousReport(options.sinceReport) : undefined;
  const client = createClient(connection);
  const checks = [...new Set(options.check)];
  const showProgress = options.progress ?? io.stderr.isTTY === true;
  const progress: ProgressDisplay | undefined = showProgress
    ? errorExportProgress(io.stderr as NodeJS.WriteStream, checks, PAGE_SIZE, !!options.details)
    : undefined;
  const { groups, stats } = collectErrorGroups(client.errorGroups, {
    checks,
    details: !!options.details,
    pageSize: PAGE_SIZE,
    ...(progress ? { progress } : {}),
  });
  const sink = openSink(options.out, io.stdout);
  try {
    const outcome = await writeErrorReport({
      format: options.format,
      sink,
      groups,
      stats,
      checks,
      details: !!options.details,
      ...(previous
        ? { comparison: { previous, compare: new ReportComparison(previous, new Set(checks)) } }
        : {}),
    });
    await sink.commit();
    progress?.stop();
    const changes = outcome.changes
      ? ` (${outcome.changes.new} new, ${outcome.changes.present} still present, ${outcome.changes.gone} gone)`
      : "";
    const where = options.out ? ` to ${options.out}` : "";
    io.stderr.write(`Wrote ${outcome.total} error group(s)${changes}${where}.\n`);
    return 0;
  } catch (error) {
    progress?.stop();
    await sink.abort();
    if (error instanceof Error) error.message = redactKey(error.message, connection.apiKey);
    throw error;
  }
}

export function reportErrorsCommand(): Command {
  const command = new Command("errors")
    .description("Export every error group of one or more checks, reading all pages concurrently.")
    .requiredOption("--check <id...>", "check id; repeat or list several")
    .addOption(
      new Option("--format <format>", "output format")
        .choices([...ERROR_REPORT_FORMATS])
        .default("md"),
    )
    .option("--out <file>", "write to this file instead of stdout (replaced only on success)")
    .option("--details", "fetch each group's full record, including rootCauseAnalyses")
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
  md    Markdown table, newest last-seen first (for a pull request or an issue)
  csv   one row per group, streamed (for a spreadsheet)
  json  the report schema, streamed; the input of --since-report
  html  a self-contained page with a chart of groups by last seen

CSV and JSON stream, so memory stays flat on large exports. Markdown and HTML sort the
groups and so hold them all; --since-report holds the earlier report.

Exit codes: 0 written, 1 error (bad options, auth, network, unreadable --since-report).

Examples:
  $ incident-sync report errors --check chk-api --check chk-web --format csv --out groups.csv
  $ incident-sync report errors --check chk-api --format json --out today.json
  $ incident-sync report errors --check chk-api --since-report yesterday.json --format md
  $ incident-sync report errors --check chk-api --details --format html --out errors.html
`,
    )
    .action(async (opts: ReportErrorsOptions & { progress: boolean }) => {
      const io = processIo();
      // --no-progress forces them off; otherwise leave the TTY decision to the command.
      const { progress, ...rest } = opts;
      process.exitCode = await runReportErrors(progress ? rest : { ...rest, progress: false }, io);
    });
}
