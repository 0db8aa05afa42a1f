import type { ErrorGroup } from "../../api/schemas";
import type { CheckNames } from "../shared/check-names";
import type { ReportSink } from "../shared/output";
import type { CollectStats } from "./collect";
import type { ReportComparison } from "./compare";
import type { ErrorReport } from "./report-schema";

/*
 * What the error-groups report is asked to write: read by `render.ts`, which picks the
 * format, and by the Markdown and HTML renderers and `summary.ts` below it.
 */

export const ERROR_REPORT_FORMATS = ["md", "csv", "json", "html"] as const;
export type ErrorReportFormat = (typeof ERROR_REPORT_FORMATS)[number];

export interface ErrorReportInput {
  format: ErrorReportFormat;
  sink: ReportSink;
  groups: AsyncIterable<ErrorGroup>;
  stats: CollectStats;
  checks: readonly string[];
  /** The checks' names from the checks list (`readCheckNames`); a check without one shows its id. */
  checkNames?: CheckNames;
  details: boolean;
  comparison?: { previous: ErrorReport; compare: ReportComparison };
  /** Markdown and HTML: only the `top` most recently seen groups (all when undefined). */
  top?: number;
  now?: Date;
  /**
   * The `error` member that closes a streamed JSON report when reading fails after groups
   * were written, so the document stays well-formed and says it is incomplete.
   * @default { message }
   */
  describeError?: (error: unknown) => unknown;
}
