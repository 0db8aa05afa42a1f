import { Command, Option } from "commander";
import { createClient } from "../../api";
import {
  collectHeartbeats,
  HEARTBEAT_REPORT_FORMATS,
  type HeartbeatReportFormat,
  openSink,
  parseSince,
  writeHeartbeatReport,
} from "../../reports";
import { type ApiFlags, addApiOptions, redactKey, resolveApiConnection } from "../api-options";
import { type CommandIo, processIo } from "./report-io";

export interface ReportHeartbeatsOptions extends ApiFlags {
  check: string[];
  since: string;
  format: HeartbeatReportFormat;
  out?: string;
  /** The end of the window; the current time unless a test pins it. */
  now?: Date;
}

/** Reports heartbeat events and success ratios. Resolves to the exit code (0); failures throw. */
export async function runReportHeartbeats(
  options: ReportHeartbeatsOptions,
  io: CommandIo = processIo(),
): Promise<number> {
  const connection = resolveApiConnection(options, io.env);
  const now = options.now ?? new Date();
  const from = parseSince(options.since, now);
  const client = createClient(connection);
  const sink = openSink(options.out, io.stdout);
  try {
    const report = await collectHeartbeats(client.heartbeats, options.check, from, now, now);
    await writeHeartbeatReport(report, options.format, sink);
    await sink.commit();
    const events = report.checks.reduce((n, c) => n + c.events.length, 0);
    const where = options.out ? ` to ${options.out}` : "";
    io.stderr.write(`Wrote ${events} event(s) of ${report.checks.length} heartbeat(s)${where}.\n`);
    return 0;
  } catch (error) {
    await sink.abort();
    if (error instanceof Error) error.message = redactKey(error.message, connection.apiKey);
    throw error;
  }
}

export function reportHeartbeatsCommand(): Command {
  const command = new Command("heartbeats")
    .description(
      "Report every heartbeat event in a window (past the API's 10-per-call cap) with success ratios.",
    )
    .requiredOption("--check <id...>", "heartbeat check id; repeat or list several")
    .option(
      "--since <when>",
      "start of the window: a duration (30m, 24h, 7d, 2w) or an ISO date",
      "24h",
    )
    .addOption(
      new Option("--format <format>", "output format")
        .choices([...HEARTBEAT_REPORT_FORMATS])
        .default("md"),
    )
    .option("--out <file>", "write to this file instead of stdout (replaced only on success)");
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
Formats:
  md    stats table and events per heartbeat, newest first
  csv   one row per event (stats are in the other formats)
  json  the heartbeat report schema: events oldest first, with stats
  html  a self-contained page with a state timeline per heartbeat

Stats are the API's: success ratio of the current and previous period, over 24 h and 7 d.

Exit codes: 0 written, 1 error (bad --since, auth, network).

Examples:
  $ incident-sync report heartbeats --check hb-nightly-backup --since 7d --format html --out hb.html
  $ incident-sync report heartbeats --check hb-nightly-backup hb-billing-sync --since 2026-11-01 --format csv
`,
    )
    .action(async (opts: ReportHeartbeatsOptions) => {
      process.exitCode = await runReportHeartbeats(opts, processIo());
    });
}
