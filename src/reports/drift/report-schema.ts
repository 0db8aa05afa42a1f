import { z } from "zod";
import { IncidentStatus } from "../../api/schemas";

export const DRIFT_REPORT_KIND = "incident-sync/drift-report";

/**
 * How an update posted since the baseline relates to the declaration: `expected` when
 * its status matches (or it carries no status: a comment), `drift` when it differs.
 */
export const UpdateClass = z.enum(["expected", "drift"]);
export type UpdateClass = z.infer<typeof UpdateClass>;

/**
 * Where a definition stands:
 * - `in-sync`: the newest update with a status has the declared status;
 * - `drifted`: it has another status;
 * - `missing`: the incident does not exist for this account;
 * - `unknown`: no update carries a status, so the live status cannot be read.
 */
export const DriftState = z.enum(["in-sync", "drifted", "missing", "unknown"]);
export type DriftState = z.infer<typeof DriftState>;

export const DriftUpdate = z.object({
  id: z.string().nullable(),
  /** As the service sent it: a status we do not know is shown as it is. */
  status: z.string().nullable(),
  description: z.string(),
  createdAt: z.string().nullable(),
  class: UpdateClass,
});
export type DriftUpdate = z.infer<typeof DriftUpdate>;

export const DriftBaseline = z.object({
  /** `since`: the --since option; `git`: the last commit of the definition file; `none`: neither. */
  source: z.enum(["since", "git", "none"]),
  at: z.string().nullable(),
});
export type DriftBaseline = z.infer<typeof DriftBaseline>;

export const DefinitionDrift = z.object({
  id: z.string(),
  name: z.string(),
  file: z.string(),
  line: z.int().min(1),
  declaredStatus: IncidentStatus,
  liveStatus: IncidentStatus.nullable(),
  state: DriftState,
  baseline: DriftBaseline,
  /** Updates newer than the baseline, newest first. */
  updatesOutsideGit: z.array(DriftUpdate),
  /** Why the state is unknown, when the incident could not be read. */
  reason: z.string().optional(),
});
export type DefinitionDrift = z.infer<typeof DefinitionDrift>;

/** The JSON drift report (`drift --format json`). */
export const DriftReport = z.object({
  kind: z.literal(DRIFT_REPORT_KIND),
  version: z.literal(1),
  generatedAt: z.iso.datetime({ offset: true }),
  drift: z.boolean(),
  summary: z.object({
    definitions: z.int().min(0),
    inSync: z.int().min(0),
    drifted: z.int().min(0),
    missing: z.int().min(0),
    unknown: z.int().min(0),
    expectedUpdates: z.int().min(0),
    driftUpdates: z.int().min(0),
  }),
  definitions: z.array(DefinitionDrift),
});
export type DriftReport = z.infer<typeof DriftReport>;
