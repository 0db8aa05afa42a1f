import { createHash } from "node:crypto";
import { z } from "zod";
import { escapeLine, type IncidentUpdate, type Service } from "../api/schemas";
import { changedAfter } from "./changed";
import {
  type AppliedStatus,
  type LiveStatus,
  liveStatusFrom,
  newestFirst,
  newestStatusUpdate,
  publishedAt,
  StatusUpdate,
} from "./live-status";

/**
 * What the program read of an incident in this run, an input of its provider: only what an
 * act on the status page changes, so a quiet run gives the same value and no new state.
 */
export const Observation = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("read"),
    newestAt: z.string().nullable(),
    status: StatusUpdate.nullable(),
    /** Name, severity and services as the status page shows them (`fieldsDigest`). */
    fields: z.string().optional(),
    /** The service's time of the incident's last change, when it gave one. */
    changedAt: z.string().optional(),
    /**
     * The declared fields the status page shows otherwise, as it shows them (`shownValue`);
     * absent while it shows them as declared, so a quiet run's value stays the same.
     */
    shown: z
      .object({
        name: z.string().optional(),
        severity: z.string().optional(),
        services: z.string().optional(),
      })
      .optional(),
  }),
  z.object({ kind: z.literal("missing") }),
  z.object({ kind: z.literal("unavailable"), reason: z.string() }),
]);
export type Observation = z.infer<typeof Observation>;

/** Fields an incident's read shows besides its updates, which someone may change outside git. */
export const DRIFTED_FIELDS = ["name", "severity", "services"] as const;
export type DriftedField = (typeof DRIFTED_FIELDS)[number];

/** What a read of a whole incident shows of the fields a declaration sets. */
export interface ObservedFields {
  name: string;
  severity: string;
  services: readonly Pick<Service, "id">[];
  updated_at?: string | null | undefined;
}

/**
 * The declared fields the status page shows otherwise: the name as written, the severity, and
 * the services as a set of ids (their names are the service's own, and need not be ours).
 */
export function driftedFields(
  declared: { name: string; severity: string; services: readonly { id: string }[] },
  live: ObservedFields,
): DriftedField[] {
  const ids = (services: readonly { id: string }[]) =>
    [...new Set(services.map((service) => service.id))].sort().join("\n");
  return DRIFTED_FIELDS.filter((field) => {
    if (field === "services") return ids(declared.services) !== ids(live.services);
    return declared[field] !== live[field];
  });
}

/** A field as messages show it and observations keep it: services as their sorted ids. */
export function shownValue(
  from: { name: string; severity: string; services: readonly { id: string }[] },
  field: DriftedField,
): string {
  if (field !== "services") return from[field];
  return [...new Set(from.services.map((service) => service.id))].sort().join(", ");
}

const DESCRIPTION_LIMIT = 120;

/**
 * Name, severity and services (as a set of ids) in a few bytes: what the observation keeps of
 * them, so that it stays small in the state and the same from run to run until they change.
 */
export function fieldsDigest(fields: {
  name: string;
  severity: string;
  services: readonly { id: string }[];
}): string {
  const ids = [...new Set(fields.services.map((service) => service.id))].sort();
  return createHash("sha256")
    .update(JSON.stringify([fields.name, fields.severity, ids]))
    .digest("base64url")
    .slice(0, 16);
}

/**
 * The observation of an incident's updates and, with `fields`, of its name, severity and
 * services; the service's time of change only while they differ from `declared`.
 */
export function observe(
  updates: readonly IncidentUpdate[],
  fields?: ObservedFields,
  declared?: Parameters<typeof fieldsDigest>[0],
): Observation {
  const newest = newestFirst(updates)[0];
  const withStatus = newestStatusUpdate(updates);
  const differing = fields && declared ? driftedFields(declared, fields) : [];
  return {
    kind: "read",
    ...(fields ? { fields: fieldsDigest(fields) } : {}),
    ...(fields?.updated_at && !(declared && fieldsDigest(declared) === fieldsDigest(fields))
      ? { changedAt: fields.updated_at }
      : {}),
    ...(fields && differing.length > 0
      ? {
          shown: Object.fromEntries(differing.map((field) => [field, shownValue(fields, field)])),
        }
      : {}),
    newestAt: newest ? new Date(publishedAt(newest)).toISOString() : null,
    status: withStatus
      ? {
          ...withStatus,
          // Quoted in messages on terminals: no escape sequence, no line of its own.
          description: escapeLine(
            withStatus.description.length > DESCRIPTION_LIMIT
              ? `${withStatus.description.slice(0, DESCRIPTION_LIMIT - 1)}…`
              : withStatus.description,
          ),
        }
      : null,
  };
}

/**
 * The live status an observation shows, by the one rule (`applied`: what the last apply set,
 * when the incident is managed already); `undefined` when the observation could not be made.
 */
export function liveStatusObserved(
  observation: Observation | undefined,
  applied?: AppliedStatus,
): LiveStatus | undefined {
  if (observation?.kind !== "read") return undefined;
  return liveStatusFrom(observation.status ?? undefined, applied);
}

/** Whether anything was posted on the status page after the last apply (outside git). */
export function postedSince(observation: Observation | undefined, appliedAt: string): boolean {
  if (observation?.kind !== "read" || observation.newestAt === null) return false;
  return Date.parse(observation.newestAt) > (Date.parse(appliedAt) || 0);
}

/**
 * Whether the status page shows other fields than the last apply set, changed after it; not
 * when unread, or read before the apply (the apply checked them): by the service's time, or
 * without one, as the very read the apply acted on (`fieldsSeen`).
 */
export function fieldsChangedSince(
  observation: Observation | undefined,
  applied: {
    name: string;
    severity: string;
    services: readonly { id: string }[];
    appliedAt: string;
    fieldsSeen?: string | undefined;
  },
): boolean {
  if (observation?.kind !== "read" || observation.fields === undefined) return false;
  if (observation.changedAt === undefined && observation.fields === applied.fieldsSeen) {
    return false;
  }
  if (!changedAfter(observation.changedAt, applied.appliedAt)) return false;
  return observation.fields !== fieldsDigest(applied);
}
