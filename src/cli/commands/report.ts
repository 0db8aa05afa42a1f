import { Command } from "commander";
import { reportErrorsCommand } from "./report-errors";
import { reportHeartbeatsCommand } from "./report-heartbeats";

/** `incident-sync report <errors|heartbeats>`: reports to hand to people and bots. */
export function reportCommand(): Command {
  return new Command("report")
    .description("Export error groups or heartbeat events as Markdown, CSV, JSON or HTML.")
    .addCommand(reportErrorsCommand())
    .addCommand(reportHeartbeatsCommand());
}
