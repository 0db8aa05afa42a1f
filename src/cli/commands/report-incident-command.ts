import { Command } from "commander";
import { SETTINGS } from "../../settings/catalog";
import { addApiOptions } from "../api-options";
import { action } from "../run-command";
import { stackOption } from "../stack-option";
import { rendererFormat, requireFormatPackages } from "./report-format";
import type { ReportIncidentOptions } from "./report-incident";
import { addReportOutputOptions, type ReportOutputFlags } from "./report-options";

/**
 * The command's flags: the work's options but the ids (the arguments), with the format in
 * the command line's words.
 */
type ReportIncidentFlags = Omit<ReportIncidentOptions, keyof ReportOutputFlags | "ids" | "now"> &
  ReportOutputFlags;

/** `incident-sync report incident <id...>`; the work is in `./report-incident`, loaded when it runs. */
export function reportIncidentCommand(): Command {
  const command = new Command("incident")
    .description(
      "Tell an incident's story on one time axis: its updates and status changes, the state of its evidence heartbeats and the error groups of its evidence checks.",
    )
    .argument("<id...>", "incident ids")
    .option(
      "--dir <dir>",
      "definitions directory; each incident's evidence (heartbeats, checks) is read from it",
      SETTINGS.definitionsDir.default,
    )
    .addOption(
      stackOption(
        "read this Pulumi stack's state (read-only) for the ids of the incidents its up opened, so each is linked to its definition",
      ),
    )
    .option(
      "--state <dir>",
      "the stack's state directory (a file backend); default PULUMI_BACKEND_URL, else backend.url of Pulumi.yaml",
    )
    .option("--heartbeat <id...>", "evidence heartbeats to add (for incidents not under git)")
    .option("--check <id...>", "evidence checks to add (for incidents not under git)")
    .option(
      "--from <when>",
      "start of the window: a duration back from now (6h, 2d) or an ISO date (default: first update minus the margin)",
    )
    .option(
      "--to <when>",
      "end of the window: now, a duration back from now, or an ISO date (default: resolution plus the margin, at most now)",
    )
    .option("--margin <duration>", "time added around the incident for the default window", "1h");
  addReportOutputOptions(command);
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
Formats:
  markdown  per incident: facts, evidence summary, the timeline and the error groups; or md
  csv       one row per timeline entry (incidentId, at, kind, source, state, ref, text)
  json      the incident report schema (src/reports/incident/report-schema.ts)
  html      a self-contained page: one chart lining up updates, heartbeat states and
            error groups, and tables that sort and filter (works offline)

The window is the incident's first update to its resolution (or now), widened by --margin;
--from and --to replace either end. Error groups first seen between the first update and
the resolution are marked new. The live status is the newest update's status, else the
declared one. The report is read whole before anything is written: on a failure stdout
holds an error document in the chosen format ({"error": {…}} for JSON) and no file is
written. An incident that up opened (a definition without an id) is linked to its
definition, and its evidence read from it, with --stack: the stack's state holds its id.
A state that is another project's or stack's is refused, naming both.

Exit codes: 0 written, 4 written, but --stack's state is another project's or stack's
(refused), 1 error (unknown incident, bad window, auth, network).

Examples:
  $ incident-sync report incident inc-api-errors --format html --out inc-api-errors.html
  $ incident-sync report incident inc-api-errors inc-checkout-latency --margin 2h
  $ incident-sync report incident inc-legacy --check chk-api --heartbeat hb-nightly-backup --from 2d
  $ incident-sync report incident inc-api-errors --format csv --out timeline.csv
  $ incident-sync report incident "$ID" --stack prod --state ./state   # an incident up opened
`,
    )
    .action(
      action<ReportIncidentFlags, [string[]]>(async (io, flags, [ids]) => {
        requireFormatPackages(flags.format);
        const { runReportIncident } = await import("./report-incident.js");
        return runReportIncident({ ...flags, ids, format: rendererFormat(flags.format) }, io);
      }),
    );
}
