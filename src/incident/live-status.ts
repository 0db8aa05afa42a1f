import { type IncidentStatus, type IncidentUpdate, knownStatus } from "../api/schemas";

/*
 * The API has no read of an incident, so its live status is read from its updates. This is
 * the one rule for it: the provider's refresh, the program's outputs and `drift` call it.
 */

/** When an update was published (what customers see), else created; 0 when it has neither. */
export function publishedAt(update: IncidentUpdate): number {
  return Date.parse(update.publicIncidentUpdateDate ?? update.created_at ?? "") || 0;
}

/** Updates newest first. Updates published at the same instant keep the API's order. */
export function newestFirst(updates: readonly IncidentUpdate[]): IncidentUpdate[] {
  return [...updates].sort((a, b) => publishedAt(b) - publishedAt(a));
}

/** The updates published after `at` (outside the last apply), newest first. */
export function updatesAfter(updates: readonly IncidentUpdate[], at: string): IncidentUpdate[] {
  const since = Date.parse(at) || 0;
  return newestFirst(updates).filter((update) => publishedAt(update) > since);
}

/** What the last apply set: its status, at the server time of its PUT. */
export interface AppliedStatus {
  status: IncidentStatus;
  at: string;
}

export interface LiveStatus {
  /** `null` when nothing tells: no update carries a status and nothing was applied. */
  status: IncidentStatus | null;
  /** `update`: the newest update with a status says so; `applied`: the last apply set it. */
  source: "update" | "applied" | "none";
  /** The update that set the status, when `source` is `update`. */
  update?: IncidentUpdate;
  /** The status that update carries when it is not one we know (then `status` is `null`). */
  unrecognized?: string;
}

/**
 * The live status of an incident from its updates.
 *
 * With `applied` (the provider's state knows the last PUT): the newest update with a status
 * published after that PUT, else the status the PUT set. A PUT need not post an update, so an
 * older update's status may be stale. Without `applied` (`drift` reads git, not the state):
 * the newest update with a status, else unknown. A status we do not know (the service added
 * one) makes the live status unknown, with the value kept in `unrecognized`.
 */
export function liveStatusOf(
  updates: readonly IncidentUpdate[],
  applied?: AppliedStatus,
): LiveStatus {
  const candidates = applied ? updatesAfter(updates, applied.at) : newestFirst(updates);
  const update = candidates.find((candidate) => hasStatus(candidate));
  if (update?.status) {
    const status = knownStatus(update.status);
    return status
      ? { status, source: "update", update }
      : { status: null, source: "update", update, unrecognized: update.status };
  }
  if (applied) return { status: applied.status, source: "applied" };
  return { status: null, source: "none" };
}

/** Whether an update carries a status at all (a comment carries none). */
export function hasStatus(update: IncidentUpdate): boolean {
  return update.status !== undefined && update.status !== null && update.status !== "";
}

/**
 * How the live status stands against the declared one: the one rule of `drift` and the
 * stack's drift output. Unknown when no update carries a status and nothing else says it.
 */
export function driftStateOf(
  live: IncidentStatus | null | undefined,
  declared: IncidentStatus,
): "unknown" | "in-sync" | "drifted" {
  if (live === null || live === undefined) return "unknown";
  return live === declared ? "in-sync" : "drifted";
}

/**
 * The status an incident shows, for the rules that guard a reopen: RESOLVED when its updates
 * or its `lastUpdateStatus` say so (a PUT that only sets the field posts no update), else its
 * newest update's status, else the field's.
 */
export function shownStatus(incident: {
  incidentUpdates?: readonly IncidentUpdate[] | undefined;
  lastUpdateStatus?: string | null | undefined;
}): IncidentStatus | null {
  const fromUpdates = liveStatusOf(incident.incidentUpdates ?? []).status;
  const field = knownStatus(incident.lastUpdateStatus);
  if (fromUpdates === "RESOLVED" || field === "RESOLVED") return "RESOLVED";
  return fromUpdates ?? field ?? null;
}
