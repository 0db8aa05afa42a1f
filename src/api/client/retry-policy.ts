import { isHTTPError, type RetryOptions as KyRetryOptions } from "ky";
import type { ResolvedOptions } from "./options";
import { retryAfterMs } from "./retry-after";

/** Statuses worth another attempt: rate limited, or a gateway/service that is briefly down. */
export const RETRY_STATUSES = [429, 502, 503, 504];

/**
 * Most 429 retries one call makes. A 429 is the server pacing the client, not failing, so it
 * does not use up `retry.limit` (a burst of them would otherwise fail a pipeline run that
 * only had to slow down); this cap and `budgetMs` still end a call that is throttled forever.
 */
export const THROTTLED_RETRIES_MAX = 50;

/** Backoff before retry `attempt` (from 1), before jitter: exponential, capped. */
function backoffMs(options: ResolvedOptions, attempt: number): number {
  const { baseDelayMs, backoffLimitMs } = options.retry;
  return Math.min(backoffLimitMs, baseDelayMs * 2 ** (attempt - 1));
}

/**
 * ky's retry settings for the client. `PUT` replaces the whole incident (or update) with the
 * same body and the rest of the spec's operations are `GET`s, so those are retried on every
 * retryable failure; `POST` and `DELETE` only on a 429 (see `send` in transport.ts).
 *
 * Full jitter as in "Exponential Backoff And Jitter" (AWS): the cap applies before the
 * random draw. ky caps after jitter (`min(backoffLimit, random * delay)`), which would pin
 * late retries to the cap, so the cap lives in `delay` and ky's `backoffLimit` stays unset.
 * ky's own `limit` only stops runaway loops; `RetryCounter` applies `retry.limit`.
 */
export function kyRetryOptions(options: ResolvedOptions): KyRetryOptions {
  const { limit, maxRetryAfterMs, onTimeout } = options.retry;
  return {
    limit: limit + THROTTLED_RETRIES_MAX,
    // POST and DELETE are kept to 429s by the call (transport.ts `IDEMPOTENT`).
    methods: ["get", "put", "post", "delete"],
    statusCodes: RETRY_STATUSES,
    // ky waits what Retry-After says (no jitter) on these statuses, else backs off.
    afterStatusCodes: RETRY_STATUSES,
    delay: (attempt) => backoffMs(options, attempt),
    jitter: true,
    retryOnTimeout: onTimeout,
    shouldRetry: ({ error }) => {
      if (isHTTPError(error)) {
        const wait = retryAfterMs(error.response.headers);
        // A wait longer than allowed fails now, carrying retryAfterMs, rather than hanging.
        if (wait !== undefined && wait > maxRetryAfterMs) return false;
      }
      return undefined;
    },
  };
}

/** Whether the server answered 429: pacing, counted apart from failures. */
export function isThrottled(error: Error): boolean {
  return isHTTPError(error) && error.response.status === 429;
}

/** The retry accounting of one call: failures against `limit`, 429s against their own cap. */
export class RetryCounter {
  private failures = 0;
  private throttled = 0;

  constructor(private readonly options: ResolvedOptions) {}

  /** Whether `error` may be retried as far as the counts go; records it if so. */
  allows(error: Error): boolean {
    // `limit: 0` asks for no retries at all, 429s included.
    if (this.options.retry.limit === 0) return false;
    if (isThrottled(error)) {
      if (this.throttled >= THROTTLED_RETRIES_MAX) return false;
      this.throttled += 1;
      return true;
    }
    if (this.failures >= this.options.retry.limit) return false;
    this.failures += 1;
    return true;
  }

  /**
   * Extra wait after a server-directed one (`Retry-After`), which ky takes as is: every
   * client told "retry after 1 s" at the same moment would otherwise come back in the same
   * instant and meet the same limit again. Full jitter over the backoff this retry would
   * have had, so the spread grows as retries go on.
   */
  spreadAfterServerWait(error: Error, retry: number): number {
    if (!isHTTPError(error) || retryAfterMs(error.response.headers) === undefined) return 0;
    return Math.random() * backoffMs(this.options, retry);
  }
}
