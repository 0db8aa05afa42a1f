import path from "node:path";
import { createClient } from "../../api";
import {
  collectHeartbeats,
  type HeartbeatReportFormat,
  parseSince,
  writeHeartbeatReport,
} from "../../reports";
import { SETTINGS } from "../../settings/catalog";
import { resolveApiConnection } from "../api-connection";
import type { ApiFlags } from "../api-options";
import { ExitCode } from "../exit-codes";
import type { CommandIo } from "../io";
import { announceEvidence, reportChecks } from "./evidence-checks";
import { readNamesFor, warnAboutHeartbeats, writeReport } from "./report-output";

export interface ReportHeartbeatsOptions extends ApiFlags {
  /** The heartbeats; none: those the definitions under `dir` list in `evidence.heartbeats`. */
  check?: string[] | undefined;
  /** The definitions directory, relative to the working directory. @default "incidents" */
  dir?: string;
  since: string;
  format: HeartbeatReportFormat;
  out?: string;
  /** The end of the window; the current time unless a test pins it. */
  now?: Date;
}

/**
 * Reports heartbeat events and success ratios. Resolves to 0 once written; failures throw,
 * and the runner turns them into exit 1. The report is read whole before it is written.
 */
export async function runReportHeartbeats(
  options: ReportHeartbeatsOptions,
  io: CommandIo,
): Promise<ExitCode> {
  const connection = resolveApiConnection(options, io.env, {
    from: path.resolve(io.cwd, options.dir ?? SETTINGS.definitionsDir.default),
  });
  const now = options.now ?? new Date();
  const from = parseSince(options.since, now);
  const dirName = options.dir ?? SETTINGS.definitionsDir.default;
  const { checks, fromDefinitions } = await reportChecks(options.check, "heartbeats", dirName, io);
  const client = createClient(connection);
  const names = await readNamesFor(client, checks, io.stderr);
  if (fromDefinitions) announceEvidence(io, "heartbeats", dirName, checks, names);
  const report = await writeReport(options.out, io, async (sink) => {
    const collected = await collectHeartbeats(client.heartbeats, checks, from, now, now, names);
    await writeHeartbeatReport(collected, options.format, sink);
    return collected;
  });
  warnAboutHeartbeats(io.stderr, report.checks, names);
  const events = report.checks.reduce((n, c) => n + c.events.length, 0);
  const where = options.out ? ` to ${options.out}` : "";
  io.stderr.write(`Wrote ${events} event(s) of ${report.checks.length} heartbeat(s)${where}.\n`);
  return ExitCode.Ok;
}
