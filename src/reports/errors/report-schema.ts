import { z } from "zod";
import { ErrorGroup } from "../../api/schemas";

/** How a group compares with an earlier report given to `--since-report`. */
export const GroupChange = z.enum(["new", "present", "gone"]);
export type GroupChange = z.infer<typeof GroupChange>;

/** One row of an error-group report: the API's group plus its change, when compared. */
export const ErrorReportGroup = ErrorGroup.extend({ change: GroupChange.optional() });
export type ErrorReportGroup = z.infer<typeof ErrorReportGroup>;

export const ERROR_REPORT_KIND = "incident-sync/error-groups-report";

/**
 * The JSON error-group report (`report errors --format json`). It is also the input of
 * `--since-report`, so it is versioned and validated when read back.
 */
export const ErrorReport = z.object({
  kind: z.literal(ERROR_REPORT_KIND),
  version: z.literal(1),
  generatedAt: z.iso.datetime({ offset: true }),
  checks: z.array(z.string()),
  /** The checks' names as the checks list gave them, by id; a check without one is left out. */
  checkNames: z.record(z.string(), z.string()).optional(),
  details: z.boolean(),
  sinceReport: z.object({ generatedAt: z.string() }).nullable(),
  groups: z.array(ErrorReportGroup),
  summary: z.object({
    total: z.int().min(0),
    byCheck: z.record(z.string(), z.int().min(0)),
    duplicatesSkipped: z.int().min(0),
    new: z.int().min(0).optional(),
    present: z.int().min(0).optional(),
    gone: z.int().min(0).optional(),
  }),
});
export type ErrorReport = z.infer<typeof ErrorReport>;
