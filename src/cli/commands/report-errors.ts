import path from "node:path";
import { createClient, createHttpFetch } from "../../api/client";
import { quoteText } from "../../api/schemas/characters";
// The error report's own modules, not the reports' index: a cold export loads nothing else.
import { type CollectProgress, collectErrorGroups } from "../../reports/errors/collect";
import { ReportComparison } from "../../reports/errors/compare";
import { readPreviousReport } from "../../reports/errors/previous-report";
import { writeErrorReport } from "../../reports/errors/render";
import type { ErrorReportFormat } from "../../reports/errors/report-input";
import { checkAbsence } from "../../reports/evidence/absent";
import { checkNamed } from "../../reports/shared/check-names";
import { openSink } from "../../reports/shared/output";
import { SETTINGS } from "../../settings/catalog";
import { resolveApiConnection } from "../api-connection";
import type { ApiFlags } from "../api-options";
import { ExitCode } from "../exit-codes";
import { describeFailure, failureJson } from "../failure";
import type { CommandIo } from "../io";
import { announceEvidence, reportChecks } from "./evidence-checks";
import { readNamesFor } from "./report-output";

export interface ReportErrorsOptions extends ApiFlags {
  /** The checks; none: those the definitions under `dir` list in `evidence.checks`. */
  check?: string[] | undefined;
  /** The definitions directory, relative to the working directory. @default "incidents" */
  dir?: string;
  format: ErrorReportFormat;
  out?: string;
  details?: boolean;
  sinceReport?: string;
  /** Markdown and HTML: the most recently seen groups to show; default 100 for md, all for html. */
  top?: number | "all";
  /** Draw progress bars; defaults to whether stderr is a TTY. */
  progress?: boolean;
}

const PAGE_SIZE = 100;
/** Markdown goes into comments and issues, which have size limits; HTML pages through all. */
const DEFAULT_MARKDOWN_TOP = 100;

function resolveTop(options: ReportErrorsOptions): number | undefined {
  const top = options.top ?? (options.format === "md" ? DEFAULT_MARKDOWN_TOP : "all");
  return top === "all" ? undefined : top;
}

/**
 * Exports the checks' error groups. CSV and JSON stream once every check's first page came, so
 * an early failure leaves stdout to the error document and a late one ends the JSON with `error`.
 */
export async function runReportErrors(
  options: ReportErrorsOptions,
  io: CommandIo,
): Promise<ExitCode> {
  const connection = resolveApiConnection(options, io.env, {
    from: path.resolve(io.cwd, options.dir ?? SETTINGS.definitionsDir.default),
  });
  const previous = options.sinceReport ? await readPreviousReport(options.sinceReport) : undefined;
  const dirName = options.dir ?? SETTINGS.definitionsDir.default;
  const { checks, fromDefinitions } = await reportChecks(options.check, "checks", dirName, io);
  // The export streams every page: node:http parses them for less memory than undici (ARCHITECTURE.md).
  const client = createClient({ ...connection, fetch: createHttpFetch() });
  const checkNames = await readNamesFor(client, checks, io.stderr);
  if (fromDefinitions) announceEvidence(io, "checks", dirName, checks, checkNames);
  const showProgress = options.progress ?? io.stderr.isTTY === true;
  // The bars' package loads only when they are drawn.
  const display = showProgress
    ? (await import("./report-progress.js")).errorExportProgress(io.stderr as NodeJS.WriteStream, {
        checks,
        pageSize: PAGE_SIZE,
        details: !!options.details,
        requestsPerMinute: connection.requestsPerMinute,
      })
    : undefined;
  const { groups, stats } = collectErrorGroups(client.errorGroups, {
    checks,
    details: !!options.details,
    detailConcurrency: connection.concurrency,
    pageSize: PAGE_SIZE,
    progress: releaseAfterFirstPages(checks, io, display),
  });
  const sink = openSink(options.out, io.stdout, io.cwd);
  try {
    const outcome = await writeErrorReport({
      format: options.format,
      sink,
      groups,
      stats,
      checks,
      checkNames,
      details: !!options.details,
      top: resolveTop(options),
      describeError: (error) => failureJson(describeFailure(error, [connection.apiKey])),
      ...(previous
        ? { comparison: { previous, compare: new ReportComparison(previous, new Set(checks)) } }
        : {}),
    });
    await sink.commit();
    display?.stop();
    const changes = outcome.changes
      ? ` (${outcome.changes.new} new, ${outcome.changes.present} still present, ${outcome.changes.gone} gone)`
      : "";
    const where = options.out ? ` to ${options.out}` : "";
    for (const skipped of stats.detailsSkipped) {
      io.stderr.write(
        `warning: error group ${quoteText(skipped.id)} of check ${quoteText(checkNamed(skipped.checkId, checkNames))} is written as listed, without its details: ${skipped.reason}, so it cannot be requested.\n`,
      );
    }
    for (const [checkId, count] of Object.entries(stats.byCheck)) {
      const absent = checkAbsence({ count });
      if (absent)
        io.stderr.write(
          `warning: check ${quoteText(checkNamed(checkId, checkNames))} may not exist: ${absent}.\n`,
        );
    }
    io.stderr.write(`Wrote ${outcome.total} error group(s)${changes}${where}.\n`);
    return ExitCode.Ok;
  } catch (error) {
    display?.stop();
    await sink.abort();
    throw error;
  }
}

/** Progress that also lets held stdout stream once the first page of every check is in. */
function releaseAfterFirstPages(
  checks: readonly string[],
  io: CommandIo,
  display: CollectProgress | undefined,
): CollectProgress {
  const waiting = new Set(checks);
  return {
    onGroups(checkId, page, count) {
      display?.onGroups?.(checkId, page, count);
      if (page === 1 && waiting.delete(checkId) && waiting.size === 0) io.releaseStdout?.();
    },
    onCheckDone: (checkId) => display?.onCheckDone?.(checkId),
    onDetail: () => display?.onDetail?.(),
  };
}
