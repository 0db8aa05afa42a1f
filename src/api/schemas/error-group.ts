import { z } from "zod";
import { ResponseDate } from "./dates";

/** An error group (spec 2.6). The shape of a root-cause analysis is not shown, so any object. */
export const ErrorGroup = z.object({
  id: z.string(),
  checkId: z.string(),
  errorHash: z.string(),
  rawErrorMessage: z.string().nullable(),
  cleanedErrorMessage: z.string(),
  firstSeen: ResponseDate,
  lastSeen: ResponseDate,
  archivedUntilNextEvent: z.boolean(),
  rootCauseAnalyses: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type ErrorGroup = z.infer<typeof ErrorGroup>;

/** Response of GET /v1/error-groups/checks/{checkId} (spec 4.4). */
export const ErrorGroupList = z.array(ErrorGroup);
export type ErrorGroupList = z.infer<typeof ErrorGroupList>;
