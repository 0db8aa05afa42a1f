/*
 * Creating an incident and posting an update are not idempotent, and a request that got no
 * answer (a timeout, a 5xx) may still be carried out by the service. Such a write is kept in
 * the state, and nothing sends it again until a read shows it or its window has passed.
 */

/**
 * How long a write whose outcome is unknown may still be carried out by the service: a
 * request held longer than this by any proxy or server would have been cut long before.
 */
export const OUTCOME_WINDOW_MS = 10 * 60 * 1000;

/** A write sent whose answer never came, as the state keeps it. */
export interface Unanswered {
  /** The entry of `updates` it carried; with no `incidentId`, the create that opens it. */
  entry: number;
  /** When it was sent (the provider's clock), ISO 8601. */
  at: string;
}

/**
 * A write about to leave, which the provider records under the lease `lease` (held by the
 * operation) before it sends it: a run that takes the lease over from a holder that died
 * finds it there as a write that got no answer. `entry` as in `Unanswered`, or
 * `RESOLVING_ENTRY` for the update a removal resolves with.
 */
export interface Intent {
  lease: string;
  entry: number;
  /** The definition's resource, for a person reading the lease's record. */
  resource: string;
}

/** The `entry` of the update a removal posts to resolve an incident: no entry of `updates`. */
export const RESOLVING_ENTRY = -1;

/** When a write sent at `unanswered.at` can no longer be carried out (ISO 8601). */
export function windowEnd(unanswered: Unanswered): string {
  return new Date((Date.parse(unanswered.at) || 0) + OUTCOME_WINDOW_MS).toISOString();
}

/** Whether `now` (ms) is still inside the window of an unanswered write. */
export function inWindow(unanswered: Unanswered | undefined, now: number): boolean {
  return unanswered !== undefined && now < (Date.parse(unanswered.at) || 0) + OUTCOME_WINDOW_MS;
}

/** Of two unanswered writes, the one sent last: the other was settled before it was sent. */
export function latest(
  a: Unanswered | undefined,
  b: Unanswered | undefined,
): Unanswered | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return Date.parse(b.at) > Date.parse(a.at) ? b : a;
}
