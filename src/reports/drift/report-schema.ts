import { z } from "zod";
import { IncidentDrift } from "../../incident";

export { DriftState, DriftUpdate } from "../../incident";

export const DRIFT_REPORT_KIND = "incident-sync/drift-report";

export const DriftBaseline = z.object({
  /** `since`: the --since option; `git`: the last commit of the definition file; `none`: neither. */
  source: z.enum(["since", "git", "none"]),
  at: z.string().nullable(),
});
export type DriftBaseline = z.infer<typeof DriftBaseline>;

/** A definition's drift: the one drift model (`IncidentDrift`) and where the definition is. */
export const DefinitionDrift = z.object({
  id: z.string(),
  name: z.string(),
  /** The definition's resource name. */
  resource: z.string().optional(),
  file: z.string(),
  line: z.int().min(1),
  /** Updates published after it count as posted outside git. */
  baseline: DriftBaseline,
  ...IncidentDrift.shape,
  /** `false`: the incident could not be checked (a new one whose id the stack's state holds). */
  checked: z.boolean().optional(),
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
    /** Definitions whose name, severity or services the status page shows otherwise. */
    fieldsDrifted: z.int().min(0),
    /** Definitions that could not be checked: drift exits 4 when there are any and no drift. */
    unchecked: z.int().min(0),
    expectedUpdates: z.int().min(0),
    driftUpdates: z.int().min(0),
  }),
  /** With `--stack`: whether its state was read, or why not (then drift exits 4 unless it drifted). */
  stack: z
    .object({ name: z.string(), read: z.boolean(), reason: z.string().optional() })
    .optional(),
  definitions: z.array(DefinitionDrift),
});
export type DriftReport = z.infer<typeof DriftReport>;
