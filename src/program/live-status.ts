import type { IncidentStatus, IncidentUpdate } from "../api";

/*
 * The API has no GET for an incident, so its live status is read from its updates. One rule
 * serves the provider's `read` (refresh) and the program's `drift` output.
 */

/** When an update was published, else created; 0 when it has neither. */
export function updateTime(update: IncidentUpdate): number {
  return Date.parse(update.publicIncidentUpdateDate ?? update.created_at ?? "") || 0;
}

/** The updates posted after the last apply (outside git), newest first. */
export function updatesAfter(
  updates: readonly IncidentUpdate[],
  appliedAt: string,
): IncidentUpdate[] {
  const since = Date.parse(appliedAt) || 0;
  return updates
    .filter((update) => updateTime(update) > since)
    .sort((a, b) => updateTime(b) - updateTime(a));
}

/** The newest status among updates given newest first, else the status the apply set. */
export function liveStatusOf(
  newestFirst: readonly IncidentUpdate[],
  appliedStatus: IncidentStatus,
): IncidentStatus {
  return newestFirst.find((update) => update.status !== undefined)?.status ?? appliedStatus;
}
