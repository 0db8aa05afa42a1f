import { isHTTPError, type RetryOptions as KyRetryOptions } from "ky";
import type { ResolvedOptions } from "./options";
import { retryAfterMs } from "./retry-after";

/** Statuses worth another attempt: rate limited, or a gateway/service that is briefly down. */
export const RETRY_STATUSES = [429, 502, 503, 504];

/**
 * ky's retry settings for the client. Safe for every operation because every operation is
 * idempotent: `PUT` replaces the whole incident with the same body, the rest are `GET`s.
 *
 * Full jitter as in "Exponential Backoff And Jitter" (AWS): the cap applies before the
 * random draw. ky caps after jitter (`min(backoffLimit, random * delay)`), which would pin
 * late retries to the cap, so the cap lives in `delay` and ky's `backoffLimit` stays unset.
 */
export function kyRetryOptions(options: ResolvedOptions): KyRetryOptions {
  const { limit, baseDelayMs, backoffLimitMs, maxRetryAfterMs, onTimeout } = options.retry;
  return {
    limit,
    methods: ["get", "put"],
    statusCodes: RETRY_STATUSES,
    // ky waits what Retry-After says (no jitter) on these statuses, else backs off.
    afterStatusCodes: RETRY_STATUSES,
    delay: (attempt) => Math.min(backoffLimitMs, baseDelayMs * 2 ** (attempt - 1)),
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
