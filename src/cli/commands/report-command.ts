import { Command } from "commander";
import { reportErrorsCommand } from "./report-errors-command";
import { reportHeartbeatsCommand } from "./report-heartbeats-command";
import { reportIncidentCommand } from "./report-incident-command";

/** `incident-sync report <errors|heartbeats|incident>`: reports to hand to people and bots. */
export function reportCommand(): Command {
  return new Command("report")
    .description(
      "Export error groups, heartbeat events or an incident's timeline as Markdown, CSV, JSON or HTML.",
    )
    .addCommand(reportErrorsCommand())
    .addCommand(reportHeartbeatsCommand())
    .addCommand(reportIncidentCommand());
}
