import { z } from "zod";
import { type IncidentStatus, type IncidentUpdate, knownStatus } from "../api/schemas";

/*
 * The API has no read of an incident's status of its own, so its live status is read from its
 * updates. This is the one rule for it, and `LiveStatus` the one shape it takes: the state,
 * the apply, the outputs, `drift`, `plan --evidence` and the reports all get it from here.
 */

/** When customers see an update: its public date, else its creation; 0 when it has neither. */
export function publishedAt(update: IncidentUpdate): number {
  return Date.parse(update.publicIncidentUpdateDate ?? update.created_at ?? "") || 0;
}

/** The one date of an update wherever one is shown: `publishedAt`, as ISO 8601; null without. */
export function publishedIso(update: IncidentUpdate): string | null {
  const at = publishedAt(update);
  return at === 0 ? null : new Date(at).toISOString();
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

/** An incident's live status, and what it is known from. */
export interface LiveStatus {
  /** `null` when nothing tells: no update carries a status and nothing was applied. */
  status: IncidentStatus | null;
  /** `update`: the newest update with a status says so; `applied`: the last apply set it. */
  source: "update" | "applied" | "none";
  /** Since when: the update's date, or the apply's server time; null when nothing tells. */
  at: string | null;
  /** The update that set it, when `source` is `update`: messages quote it. */
  update?: { id: string | null; description: string };
  /** The status that update carries when it is not one we know (then `status` is `null`). */
  unrecognized?: string;
}

/** What the last apply set, and when (its server time): the rule's other input. */
export interface AppliedStatus {
  status: IncidentStatus;
  at: string;
}

/** What the last apply set: its status, at the server time of its PUT. */
export function appliedStatus(status: IncidentStatus, at: string): LiveStatus {
  return { status, source: "applied", at };
}

/**
 * The newest update that carries a status, as far as the rule and its messages need it; an
 * observation keeps it in the state as is.
 */
export const StatusUpdate = z.object({
  /** As the server sent it: a status we do not know is kept, and read as unknown. */
  status: z.string(),
  /** When it was published (`publishedAt`, ISO 8601; the epoch when it has no date). */
  at: z.string(),
  updateId: z.string().nullable(),
  description: z.string(),
});
export type StatusUpdate = z.infer<typeof StatusUpdate>;

/** The live status as the stack's outputs show it: since when, only when an update says so. */
export interface LiveOutput {
  status: IncidentStatus | null;
  source: LiveStatus["source"];
  since: string | null;
}

export function liveOutput(live: LiveStatus): LiveOutput {
  return {
    status: live.status,
    source: live.source,
    since: live.source === "update" ? live.at : null,
  };
}

/** The newest update that carries a status, or undefined. */
export function newestStatusUpdate(updates: readonly IncidentUpdate[]): StatusUpdate | undefined {
  const update = newestFirst(updates).find(hasStatus);
  if (!update?.status) return undefined;
  return {
    status: update.status,
    at: new Date(publishedAt(update)).toISOString(),
    updateId: update.id ?? null,
    description: update.description,
  };
}

/**
 * The rule: with `applied`, the newest status update published after it, else what it set (a
 * PUT need not post one); without, that update, else unknown. An unknown status is kept aside.
 */
export function liveStatusFrom(
  newest: StatusUpdate | undefined,
  applied?: AppliedStatus,
): LiveStatus {
  const after =
    newest && (!applied || (Date.parse(newest.at) || 0) > (Date.parse(applied.at) || 0));
  if (newest && after) {
    const status = knownStatus(newest.status);
    const update = { id: newest.updateId, description: newest.description };
    return status
      ? { status, source: "update", at: newest.at, update }
      : { status: null, source: "update", at: newest.at, update, unrecognized: newest.status };
  }
  if (applied) return appliedStatus(applied.status, applied.at);
  return { status: null, source: "none", at: null };
}

/** The live status of an incident from its updates (`liveStatusFrom` on the newest). */
export function liveStatusOf(
  updates: readonly IncidentUpdate[],
  applied?: AppliedStatus,
): LiveStatus {
  const candidates = applied ? updatesAfter(updates, applied.at) : updates;
  return liveStatusFrom(newestStatusUpdate(candidates), applied);
}

/** Whether an update carries a status at all (a comment carries none). */
export function hasStatus(update: IncidentUpdate): boolean {
  return update.status !== undefined && update.status !== null && update.status !== "";
}

/** When the incident ran, from its updates. */
export interface IncidentSpan {
  /** The first update, or undefined when there is none. */
  started: number | undefined;
  /** When the status last became RESOLVED, if the live status is RESOLVED. */
  resolved: number | undefined;
  liveStatus: IncidentStatus | null;
}

/**
 * The span of an incident from its updates (any order), as a report shows it. The live status
 * is the one rule's without an applied status (a report reads no Pulumi state): the newest
 * update with a status, else unknown. The declared status is not live.
 */
export function incidentSpan(updates: readonly IncidentUpdate[]): IncidentSpan {
  const oldestFirst = [...updates].sort((a, b) => publishedAt(a) - publishedAt(b));
  const liveStatus = liveStatusOf(updates).status;
  let resolved: number | undefined;
  for (const update of oldestFirst) {
    if (!hasStatus(update)) continue;
    if (update.status !== "RESOLVED") resolved = undefined;
    else resolved ??= publishedAt(update);
  }
  return {
    started: oldestFirst[0] ? publishedAt(oldestFirst[0]) : undefined,
    resolved: liveStatus === "RESOLVED" ? resolved : undefined,
    liveStatus,
  };
}

/**
 * The status an incident read whole shows, for the rules that guard a reopen: RESOLVED when its
 * updates or its `lastUpdateStatus` say so (a PUT may only set the field), else the updates'.
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
