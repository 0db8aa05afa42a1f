/** What is known about a long read while it runs. */
export interface ReadPace {
  /** Requests answered so far. */
  readonly done: number;
  /** Requests still to make, as far as is known. */
  readonly remaining: number;
  /** Time since the read started. */
  readonly elapsedMs: number;
  /** The client's rate limit. */
  readonly requestsPerMinute: number;
}

/**
 * Seconds left at the slower of the pace so far and the rate limit. The client's limiter
 * lets a burst through before it starts waiting, so the pace of the first seconds alone
 * would promise far too little; the limit alone would ignore a slow server.
 */
export function secondsLeft(pace: ReadPace): number {
  const limit = pace.requestsPerMinute / 60;
  const observed = pace.elapsedMs > 0 ? (pace.done * 1000) / pace.elapsedMs : limit;
  const rate = Math.min(observed > 0 ? observed : limit, limit);
  return Math.ceil(pace.remaining / rate);
}

/** `45s`, `3m 05s`, `1h 02m`. */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
