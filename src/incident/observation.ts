import { createHash } from "node:crypto";
import { escapeLine, type IncidentUpdate, type Service } from "../api/schemas";
import type { IncidentDeclaration } from "./declaration";
import {
  type AppliedStatus,
  hasStatus,
  type LiveStatus,
  liveStatusOf,
  newestFirst,
  publishedAt,
} from "./live-status";

/** The newest update that carries a status, as far as the provider needs it. */
export interface ObservedStatus {
  /** As the server sent it: a status we do not know is kept, and read as unknown. */
  status: string;
  /** When it was published, ISO 8601. */
  at: string;
  updateId: string | null;
  /** Its text, cut to `DESCRIPTION_LIMIT` characters: it names who did what in messages. */
  description: string;
}

/**
 * What the program read of an incident's updates in this run, passed to the provider as an
 * input so that `preview` and `up` see what happened on the status page without a refresh.
 * It holds only what changes when someone acts on the status page, so a run in which nothing
 * happened gives the same value as the last one and the engine writes no new state for it.
 */
export type Observation =
  | {
      kind: "read";
      newestAt: string | null;
      status: ObservedStatus | null;
      /**
       * The name, severity and services the status page shows (`fieldsDigest`); absent when
       * the read gave only the updates. It changes only when they change there.
       */
      fields?: string;
      /** The service's time of the incident's last change, when it gave one. */
      changedAt?: string;
    }
  | { kind: "missing" }
  | { kind: "unavailable"; reason: string };

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
  declared: Pick<IncidentDeclaration, "name" | "severity" | "services">,
  live: ObservedFields,
): DriftedField[] {
  const ids = (services: readonly { id: string }[]) =>
    [...new Set(services.map((service) => service.id))].sort().join("\n");
  return DRIFTED_FIELDS.filter((field) => {
    if (field === "services") return ids(declared.services) !== ids(live.services);
    return declared[field] !== live[field];
  });
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
 * The observation of an incident: of its updates as the API returns them, and with `fields`
 * (a read of the whole incident) of its name, severity and services. When they differ from
 * `declared`, it also keeps when the service last changed the incident, which tells a change
 * made after the last apply from one this run is about to make; when they agree it leaves the
 * time out, so the observation stays the same from run to run.
 */
export function observe(
  updates: readonly IncidentUpdate[],
  fields?: ObservedFields,
  declared?: Parameters<typeof fieldsDigest>[0],
): Observation {
  const ordered = newestFirst(updates);
  const newest = ordered[0];
  const withStatus = ordered.find(hasStatus);
  return {
    kind: "read",
    ...(fields ? { fields: fieldsDigest(fields) } : {}),
    ...(fields?.updated_at && !(declared && fieldsDigest(declared) === fieldsDigest(fields))
      ? { changedAt: fields.updated_at }
      : {}),
    newestAt: newest ? new Date(publishedAt(newest)).toISOString() : null,
    status: withStatus?.status
      ? {
          status: withStatus.status,
          at: new Date(publishedAt(withStatus)).toISOString(),
          updateId: withStatus.id ?? null,
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
 * The live status an observation shows, by the one rule of `liveStatusOf` (`applied`: what the
 * last apply set, when the incident is managed already); `undefined` when the observation
 * could not be made.
 */
export function liveStatusObserved(
  observation: Observation | undefined,
  applied?: AppliedStatus,
): LiveStatus | undefined {
  if (observation?.kind !== "read") return undefined;
  const seen = observation.status;
  const updates: IncidentUpdate[] = seen
    ? [
        {
          ...(seen.updateId === null ? {} : { id: seen.updateId }),
          description: seen.description,
          status: seen.status,
          publicIncidentUpdateDate: seen.at,
          notifySubscribers: false,
        },
      ]
    : [];
  return liveStatusOf(updates, applied);
}

/** Whether anything was posted on the status page after the last apply (outside git). */
export function postedSince(observation: Observation | undefined, appliedAt: string): boolean {
  if (observation?.kind !== "read" || observation.newestAt === null) return false;
  return Date.parse(observation.newestAt) > (Date.parse(appliedAt) || 0);
}

/**
 * Whether the status page shows another name, severity or services than the last apply set:
 * changed there, outside git. `false` when the observation did not read them, or was made
 * before the apply (the service's time of the last change is not after it): an apply checks
 * what the service kept, and a refresh diffs the inputs of the run before it.
 */
export function fieldsChangedSince(
  observation: Observation | undefined,
  applied: {
    name: string;
    severity: string;
    services: readonly { id: string }[];
    appliedAt: string;
  },
): boolean {
  if (observation?.kind !== "read" || observation.fields === undefined) return false;
  const changed = Date.parse(observation.changedAt ?? "");
  const appliedAt = Date.parse(applied.appliedAt);
  if (Number.isFinite(changed) && Number.isFinite(appliedAt) && changed <= appliedAt) return false;
  return observation.fields !== fieldsDigest(applied);
}
