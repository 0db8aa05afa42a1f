/** Information given to `onRetry` before a retry is sent. Never holds the API key. */
export interface RetryEvent {
  /** The client operation, e.g. `errorGroups.listForCheck`. */
  readonly operation: string;
  readonly method: string;
  /** Path and query relative to the base URL. */
  readonly path: string;
  /** 1 for the first retry. */
  readonly retry: number;
  /** Why: `503 Service Unavailable`, `429 Too Many Requests`, `network error`, `timeout`. */
  readonly reason: string;
}

/** A method the client may send again after a failure: ky's names, lower case. */
export type RetryMethod = "get" | "put";

/**
 * Retry policy, in ky's names (`retry` of ky 2), carried out by the client's own loop
 * (ARCHITECTURE.md says why ky's cannot). A `GET` or `PUT` (of the whole incident or update)
 * is sent again after any retryable failure; a `DELETE` only after a 429, which says the
 * service did not act on it; a `POST` never: after a 429 every client sharing the budget waits
 * it out, and its caller reads whether it was made before it sends it again.
 */
export interface RetryOptions {
  /**
   * Retries after failures (the `statusCodes` but 429, network errors, timeouts) in one call.
   * A 429 is the server pacing the client and does not count: it is waited out up to
   * `THROTTLED_RETRIES_MAX` times, within `maxThrottledMs`. 0 turns retrying off altogether,
   * 429s included.
   * @default 3 (`CLIENT_DEFAULTS.retryLimit`)
   */
  limit?: number;
  /**
   * The methods sent again after a failure, of `get` and `put`. A `post` or `delete` may have
   * been carried out when its answer is lost, so a `delete` is sent again only after a 429,
   * and a `post` never, whatever this says.
   * @default ["get", "put"]
   */
  methods?: RetryMethod[];
  /**
   * The statuses worth another attempt. 429 is waited out as pacing (above); the others are
   * failures, retried `limit` times.
   * @default [429, 502, 503, 504]
   */
  statusCodes?: number[];
  /**
   * The wait before failure retry `attemptCount` (from 1), before jitter: full jitter draws
   * the wait at random between 0 and this (capped by `backoffLimit`).
   * @default (attemptCount) => 0.3 * 2 ** (attemptCount - 1) * 1000
   * @example { delay: (attemptCount) => 100 * attemptCount }
   */
  delay?: (attemptCount: number) => number;
  /**
   * Upper bound of one backoff wait, before jitter, in milliseconds.
   * @default 10_000
   */
  backoffLimit?: number;
  /**
   * Whether a timed-out attempt is retried (a stalled connection is the commonest flaky-network
   * failure). ky's default is `false`; a pipeline run is better served by one more try.
   * @default true
   */
  retryOnTimeout?: boolean;
  /**
   * How long after its first 429 one call may still be waiting out the service's rate limit.
   * A 429 without `Retry-After` is waited out in seconds sized to `rateLimit.intervalMs` (a
   * tenth of it, doubling, with jitter); past this, the call fails with a `RateLimitError`
   * naming the client's limit.
   * @default twice `rateLimit.intervalMs` (120_000)
   */
  maxThrottledMs?: number;
  /**
   * Longest `Retry-After` wait the client accepts. A server asking for more fails the call at
   * once with a `RateLimitError`/`ServerError` that carries `retryAfterMs`, instead of
   * hanging. (ky's `maxRetryAfter` would wait that long and try again.)
   * @default 60_000
   */
  maxRetryAfterMs?: number;
  /**
   * Time one client may spend waiting between retries, over all its calls. Once it is used up,
   * a call fails at its next error instead of retrying, so an API that keeps failing cannot hold
   * a pipeline run for `limit` retries of every call.
   * @default 300_000
   */
  budgetMs?: number;
  /** @deprecated Use `delay`: `baseDelayMs: b` is `delay: (n) => b * 2 ** (n - 1)`. */
  baseDelayMs?: number;
  /** @deprecated Use `backoffLimit` (ky's name). */
  backoffLimitMs?: number;
  /** @deprecated Use `retryOnTimeout` (ky's name). */
  onTimeout?: boolean;
}

/**
 * What the client reads of the server's answers, so that a hostile or broken server can
 * neither hold a run nor fill its memory or the stack's state. Passing one is an error
 * naming the request (`ResponseTooLargeError`, `PagingError`); callers that only observe
 * (the program's read-backs, reports' evidence) turn it into a warning.
 */
export interface ResponseLimits {
  /**
   * Largest response body, in bytes, checked against `Content-Length` and while reading.
   * @default 10_485_760 (10 MiB; the 100 updates of an incident are a few hundred KiB)
   */
  maxBodyBytes?: number;
  /**
   * Most items in one list answer (an incident's updates: the API returns its 100 latest).
   * @default 1_000
   */
  maxItems?: number;
  /**
   * Most pages one listing requests (error groups of a check, a heartbeat's events window).
   * @default 1_000 (100,000 error groups at 100 a page)
   */
  maxPages?: number;
  /**
   * Deepest nesting of arrays and objects in an answer, checked before it is parsed (the
   * service's deepest, an error group's root-cause analyses, is a few levels).
   * @default 64
   */
  maxDepth?: number;
}

/** Options of `createClient`. */
export interface ClientOptions {
  /**
   * Base URL of the API; paths such as `/v1/error-groups/{id}` are appended to it.
   * @example "http://127.0.0.1:4010"
   */
  baseUrl: string;
  /** API key, sent as `Authorization: Bearer <key>`. Kept in a closure: never in errors, logs or `util.inspect`. */
  apiKey: string;
  /** Account identifier, sent as `x-service-account` on every call when set. */
  accountId?: string | undefined;
  /** The fetch implementation; defaults to the global one. */
  fetch?: typeof fetch | undefined;
  /**
   * Timeout of one HTTP attempt, headers and the whole body, in milliseconds (waiting for the
   * rate limiter does not count), as ky's `timeout`. A timed-out attempt is retried (see
   * `RetryOptions.retryOnTimeout`) and the last one fails with `TimeoutError`.
   * @default 10_000
   */
  timeout?: number | undefined;
  /**
   * Timeout of one whole call in milliseconds, its retries, their waits and the rate limiter's
   * included, as ky's `totalTimeout`: past it, no attempt or retry starts, the attempt in
   * flight is stopped, and the call fails with `TimeoutError` (`total: true`).
   * @default none
   * @example { totalTimeout: 60_000 }
   */
  totalTimeout?: number | undefined;
  /**
   * When every call must have ended, as a time (`Date` or epoch milliseconds): each call's
   * `totalTimeout` is cut to it, and a call it ends fails with `DeadlineError`. A command sets
   * its whole run's deadline here, so a slow or throttling server cannot hold it longer,
   * whatever `timeout`, the retries and `Retry-After` allow.
   * @default none
   * @example { deadline: Date.now() + 30 * 60_000 }
   */
  deadline?: Date | number | undefined;
  /** @deprecated Use `timeout` (ky's name). */
  timeoutMs?: number | undefined;
  /** Retry policy; see `RetryOptions`. */
  retry?: RetryOptions | undefined;
  /**
   * The rate limit every HTTP attempt keeps, retries included: at most `limit` in any
   * `intervalMs`, counted from each attempt's sending to its answer, however the service aligns
   * or slides its window. A window's worth goes as fast as the server answers; only the next
   * waits, for the window to pass. `shared` (the default):
   * one budget for every client of this machine with the same key and base URL, other
   * processes included (a file in the user's runtime directory), so a Pulumi run's program and
   * provider plugin, and a report beside them, keep to the limit together, and to the strictest
   * limit any of them was given.
   * @default { limit: 600, intervalMs: 60_000, shared: true } (`CLIENT_DEFAULTS.rateLimit`: what the reference service allows)
   */
  rateLimit?: { limit: number; intervalMs: number; shared?: boolean | undefined } | undefined;
  /**
   * Most operations in flight at once; `errorGroups.allForCheck` fetches this many pages ahead.
   * @default 8 (`CLIENT_DEFAULTS.concurrency`)
   */
  concurrency?: number | undefined;
  /** Called before each retry, e.g. to log it. Receives no secret. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** What the client reads of an answer; see `ResponseLimits`. */
  limits?: ResponseLimits | undefined;
}
