/*
 * Creating an incident and posting an update are not idempotent, and a request that got no
 * answer (a timeout, a 5xx, an answer that is not what was sent) may still be carried out by
 * the service. Such a write is kept in the state, and nothing sends it again until a read
 * shows it or its window has passed.
 *
 * Clocks: a window is measured by the machine's monotonic clock when the write and the moment
 * asking were read on the same boot of the same machine (every process shares it), so a wall
 * clock moved forward cannot end it early, nor one moved back prolong it past both ends: it
 * ends when both the monotonic and the wall clock say so. Recorded on another boot or machine
 * (a reboot, state read from another checkout), only the wall clock is there: a window is then
 * taken to end when the wall clock says, and a jump of it between those two runs is not covered.
 */

/**
 * How long a write whose outcome is unknown may still be carried out by the service: a
 * request held longer than this by any proxy or server would have been cut long before.
 */
export const OUTCOME_WINDOW_MS = 10 * 60 * 1000;

/**
 * How often one operation sends a write again after a 429 whose read-back did not show it: a
 * service that keeps answering 429 is waited out by a later run, not by this one.
 */
export const THROTTLED_WRITES_MAX = 10;

/**
 * A reading of the machine's monotonic clock (ms), which every process of one boot shares:
 * `boot` names the boot, as readings of two boots cannot be compared.
 */
export interface Monotonic {
  boot: string;
  ms: number;
}

/** When something happened: the wall clock (ms), and the monotonic clock where one is known. */
export interface Moment {
  at: number;
  clock?: Monotonic | undefined;
}

/** A write sent whose answer never came, as the state keeps it. */
export interface Unanswered {
  /** The entry of `updates` it carried; with no `incidentId`, the create that opens it. */
  entry: number;
  /** When it was sent (the provider's clock), ISO 8601. */
  at: string;
  /** The monotonic clock when it was sent, where the provider had one. */
  clock?: Monotonic | undefined;
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

/** An unanswered write sent at `sent`. */
export function unansweredAt(entry: number, sent: Moment): Unanswered {
  const at = new Date(sent.at).toISOString();
  return sent.clock ? { entry, at, clock: sent.clock } : { entry, at };
}

/**
 * When a write can no longer be carried out (ms, the wall clock of `now`): its wall end, or
 * later when the monotonic clock of the same boot says less time has passed.
 */
function windowEndMs(unanswered: Unanswered, now: Moment | undefined): number {
  const wall = (Date.parse(unanswered.at) || 0) + OUTCOME_WINDOW_MS;
  const then = unanswered.clock;
  if (now === undefined || then === undefined) return wall;
  const clock = now.clock;
  if (clock?.boot !== then.boot) return wall;
  return Math.max(wall, now.at + OUTCOME_WINDOW_MS - (clock.ms - then.ms));
}

/** When a write can no longer be carried out, as of `now` (ISO 8601). */
export function windowEnd(unanswered: Unanswered, now?: Moment): string {
  return new Date(windowEndMs(unanswered, now)).toISOString();
}

/** Whether `now` is still inside the window of an unanswered write. */
export function inWindow(unanswered: Unanswered | undefined, now: Moment): boolean {
  return unanswered !== undefined && now.at < windowEndMs(unanswered, now);
}

/** Of two unanswered writes, the one sent last: the other was settled before it was sent. */
export function latest(
  a: Unanswered | undefined,
  b: Unanswered | undefined,
): Unanswered | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return Date.parse(b.at) > Date.parse(a.at) ? b : a;
}
