import { escapeLine, type IncidentUpdate } from "../api/schemas";
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
  | { kind: "read"; newestAt: string | null; status: ObservedStatus | null }
  | { kind: "missing" }
  | { kind: "unavailable"; reason: string };

const DESCRIPTION_LIMIT = 120;

/** The observation of a list of updates as the API returns it. */
export function observe(updates: readonly IncidentUpdate[]): Observation {
  const ordered = newestFirst(updates);
  const newest = ordered[0];
  const withStatus = ordered.find(hasStatus);
  return {
    kind: "read",
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
