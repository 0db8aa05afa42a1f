import { z } from "zod";
import { IncidentStatus, type IncidentUpdate } from "../api/schemas";
import { changedAfter } from "./changed";
import type { IncidentDeclaration } from "./declaration";
import {
  type AppliedStatus,
  hasStatus,
  type LiveStatus,
  liveStatusOf,
  newestFirst,
  publishedIso,
  updatesAfter,
} from "./live-status";
import { DRIFTED_FIELDS, driftedFields, type ObservedFields, shownValue } from "./observation";

/*
 * The one drift model: the stack's `drift` output and `incident-sync drift` take their entries
 * from here, and differ only in what they know of the last apply and from when they count.
 */

/**
 * An update posted outside git: `expected` when its status is the declared one (or it carries
 * none: a comment), `drift` when it differs. `at` is its date by the one rule (`publishedIso`).
 */
export const DriftUpdate = z.object({
  id: z.string().nullable(),
  at: z.string().nullable(),
  /** As the service sent it: a status we do not know is shown as it is. */
  status: z.string().nullable(),
  description: z.string(),
  class: z.enum(["expected", "drift"]),
});
export type DriftUpdate = z.infer<typeof DriftUpdate>;

/** A declared field the status page shows otherwise (services as their sorted ids). */
export const FieldDrift = z.object({
  field: z.enum(DRIFTED_FIELDS),
  declared: z.string(),
  live: z.string(),
});
export type FieldDrift = z.infer<typeof FieldDrift>;

/** `in-sync` or `drifted` by the live status; `missing`: a 404; `unknown`: unread, or no status tells. */
export const DriftState = z.enum(["in-sync", "drifted", "missing", "unknown"]);
export type DriftState = z.infer<typeof DriftState>;

export const IncidentDrift = z.object({
  declaredStatus: IncidentStatus,
  liveStatus: IncidentStatus.nullable(),
  state: DriftState,
  /** Updates posted outside git, newest first. */
  updatesOutsideGit: z.array(DriftUpdate),
  /** Declared fields the status page shows otherwise, when they were read. */
  fields: z.array(FieldDrift).optional(),
  /** Why the state is unknown or missing, when the incident could not be read. */
  reason: z.string().optional(),
});
export type IncidentDrift = z.infer<typeof IncidentDrift>;

/** What the drift of one incident is worked out from. */
export interface DriftInput {
  declared: Pick<IncidentDeclaration, "status"> &
    Partial<Pick<IncidentDeclaration, "name" | "severity" | "services">>;
  /** The incident's updates as read (any order). */
  updates: readonly IncidentUpdate[];
  /** What the last apply set, when known (the state, `--applied`). */
  applied?: AppliedStatus | undefined;
  /** Updates published after this count as posted outside git; null: every update does. */
  since: string | null;
  /** Name, severity and services as read after the last apply, to compare with `declared`. */
  fields?: ObservedFields | undefined;
  /** Ids of the updates the stack's applies posted: git's entries, never outside it. */
  posted?: ReadonlySet<string> | undefined;
}

/** The drift of an incident whose updates were read. */
export function driftOf(input: DriftInput): IncidentDrift & { live: LiveStatus } {
  const { declared } = input;
  const live = liveStatusOf(input.updates, input.applied);
  const outside = (
    input.since === null ? newestFirst(input.updates) : updatesAfter(input.updates, input.since)
  ).filter((update) => !(update.id && input.posted?.has(update.id)));
  const fields =
    input.fields &&
    declared.name !== undefined &&
    declared.severity !== undefined &&
    declared.services
      ? fieldDrift(
          { name: declared.name, severity: declared.severity, services: declared.services },
          input.fields,
        )
      : [];
  return {
    declaredStatus: declared.status,
    liveStatus: live.status,
    state:
      live.status === null ? "unknown" : live.status === declared.status ? "in-sync" : "drifted",
    updatesOutsideGit: outside.map((update) => ({
      id: update.id ?? null,
      at: publishedIso(update),
      status: update.status ?? null,
      description: update.description,
      class: !hasStatus(update) || update.status === declared.status ? "expected" : "drift",
    })),
    ...(fields.length > 0 ? { fields } : {}),
    live,
  };
}

/** The drift of an incident that could not be read: `missing` when it does not exist. */
export function unreadDrift(
  declaredStatus: IncidentStatus,
  why: { missing: boolean; reason?: string | undefined },
): IncidentDrift {
  return {
    declaredStatus,
    liveStatus: null,
    state: why.missing ? "missing" : "unknown",
    updatesOutsideGit: [],
    ...(why.reason === undefined ? {} : { reason: why.reason }),
  };
}

/**
 * The one verdict of an incident's drift: `drifted` when its live status is not the declared
 * one or a declared field shows otherwise, `missing` or `unknown` when it could not tell, else
 * `in-sync`. Updates posted outside git that keep the declared status are ordinary activity.
 */
export function driftVerdict(drift: Pick<IncidentDrift, "state" | "fields">): DriftState {
  if (drift.state !== "in-sync") return drift.state;
  return (drift.fields?.length ?? 0) > 0 ? "drifted" : "in-sync";
}

/** Whether an incident has drifted from git, or cannot be told to be in sync (`driftVerdict`). */
export function hasDrifted(drift: Pick<IncidentDrift, "state" | "fields">): boolean {
  return driftVerdict(drift) !== "in-sync";
}

/** The declared fields the status page shows otherwise, with both values. */
function fieldDrift(
  declared: Pick<IncidentDeclaration, "name" | "severity" | "services">,
  live: ObservedFields,
): FieldDrift[] {
  return driftedFields(declared, live).map((field) => ({
    field,
    declared: shownValue(declared, field),
    live: shownValue(live, field),
  }));
}

/**
 * Whether a read of the whole incident shows a change after the last apply: the service's time
 * of its last change (its creation, when never changed) is after the apply's, which is the
 * service's time too. An older read is no word on the fields: the apply checked them.
 */
export function changedSinceApply(
  read: { updated_at?: string | null | undefined; created_at?: string | null | undefined },
  appliedAt: string,
): boolean {
  return changedAfter(read.updated_at ?? read.created_at, appliedAt);
}
