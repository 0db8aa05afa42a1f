import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UserError } from "../../user-error";
import { ErrorReport } from "./report-schema";

/** Raised when `--since-report` names a file that is not a readable JSON error report. */
export class PreviousReportError extends UserError {
  override name = "PreviousReportError";
}

/** Reads and validates an earlier JSON report; the message says which file and what is wrong. */
export async function readPreviousReport(path: string): Promise<ErrorReport> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new PreviousReportError(`Cannot read --since-report ${path}: ${code}.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new PreviousReportError(
      `--since-report ${path} is not JSON (${(error as Error).message}); pass a report written by \`report errors --format json\`.`,
    );
  }
  const parsed = ErrorReport.safeParse(data);
  if (!parsed.success) {
    throw new PreviousReportError(
      `--since-report ${path} is not an error-group report written by \`report errors --format json\`:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
