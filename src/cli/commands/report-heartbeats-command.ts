import { Command } from "commander";
import { SETTINGS } from "../../settings/catalog";
import { addApiOptions } from "../api-options";
import { action } from "../run-command";
import { rendererFormat, requireFormatPackages } from "./report-format";
import type { ReportHeartbeatsOptions } from "./report-heartbeats";
import { addReportOutputOptions, type ReportOutputFlags } from "./report-options";

/** The command's flags: the work's options, with the format in the command line's words. */
type ReportHeartbeatsFlags = Omit<ReportHeartbeatsOptions, keyof ReportOutputFlags | "now"> &
  ReportOutputFlags;

/** `incident-sync report heartbeats`; the work is in `./report-heartbeats`, loaded when it runs. */
export function reportHeartbeatsCommand(): Command {
  const command = new Command("heartbeats")
    .description(
      "Report every heartbeat event in a window (past the API's 10-per-call cap) with success ratios.",
    )
    .option(
      "--check <id...>",
      "heartbeat check id; repeat or list several (default: every heartbeat the definitions list in evidence.heartbeats)",
    )
    .option(
      "--dir <dir>",
      "definitions directory, whose evidence.heartbeats are reported when no --check is given",
      SETTINGS.definitionsDir.default,
    )
    .option(
      "--since <when>",
      "start of the window: a duration (30m, 24h, 7d, 2w) or an ISO date",
      "24h",
    );
  addReportOutputOptions(command);
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
Formats:
  markdown  stats table and events per heartbeat, oldest first; or md
  csv       one row per event (stats are in the other formats)
  json      the heartbeat report schema: events oldest first, with stats
  html      a self-contained page: one state timeline with a lane per heartbeat (bands by
            state, a dot per change, tooltips), stats, and event tables that sort and filter

Stats are the API's: success ratio of the current and previous period, over 24 h and 7 d; a
period with no pings reads "no pings", and no change is drawn from or to it.
The last event before the window is read too, so the state when it opened is known.
The report is read whole before anything is written: on a failure stdout holds an error
document in the chosen format ({"error": {…}} for JSON) and no file is written.

Without --check, the report covers every heartbeat the definitions list in
evidence.heartbeats (--dir, default incidents); with none listed, it is an error in the
chosen format.

Exit codes: 0 written, 1 error (bad --since, auth, network).

Examples:
  $ incident-sync report heartbeats --format json
  $ incident-sync report heartbeats --check hb-nightly-backup --since 7d --format html --out hb.html
  $ incident-sync report heartbeats --check hb-nightly-backup hb-billing-sync --since 2026-11-01 --format csv
`,
    )
    .action(
      action<ReportHeartbeatsFlags>(async (io, flags) => {
        requireFormatPackages(flags.format);
        const { runReportHeartbeats } = await import("./report-heartbeats.js");
        return runReportHeartbeats({ ...flags, format: rendererFormat(flags.format) }, io);
      }),
    );
}
