import type { Command } from "commander";
import { formatOption } from "../formats";
import { REPORT_FORMATS, type ReportFormat } from "./report-format";

/** The flags `addReportOutputOptions` adds, as commander parses them. */
export interface ReportOutputFlags {
  format: ReportFormat;
  out?: string;
}

/**
 * `--format` and `--out` as every `report …` command takes them: the same four formats,
 * Markdown by default, and a file that appears only on success. Added where it is called,
 * so each command's help lists them in its own place among its options.
 */
export function addReportOutputOptions(command: Command): Command {
  return command
    .addOption(formatOption(REPORT_FORMATS, "markdown"))
    .option("--out <file>", "write to this file instead of stdout (replaced only on success)");
}
