import type { IncidentStatus } from "../api/schemas";

/**
 * Whether moving an incident from `from` to `to` reopens it: RESOLVED back to an open status.
 * Reopening tells customers the problem is back, so a definition must say `reopen: true`.
 */
export function isReopen(from: IncidentStatus | null | undefined, to: IncidentStatus): boolean {
  return from === "RESOLVED" && to !== "RESOLVED";
}

/** Whether the move is refused: a reopen the definition does not allow. */
export function reopenRefused(
  from: IncidentStatus | null | undefined,
  to: IncidentStatus,
  reopen: boolean | undefined,
): boolean {
  return isReopen(from, to) && reopen !== true;
}

/** Why a reopen in git is refused, and what to do: said the same by `plan` and the provider. */
export function reopenWithoutFlagMessage(to: IncidentStatus): string {
  return `status goes from RESOLVED back to ${to}; add "reopen: true" to reopen a resolved incident on purpose.`;
}
