import { isHTTPError, isNetworkError, isTimeoutError } from "ky";
import type { HttpMethod } from "../routes";
import type { RetryMethod } from "./options";
import type { ResolvedOptions } from "./resolve-options";
import { retryAfterMs } from "./retry-after";

/*
 * Whether and when a failed attempt is sent again: one pure decision per failure, which the
 * transport's loop carries out (transport.ts). Retries are the client's alone; ky sends each
 * attempt once.
 */

/**
 * Most 429 retries one call makes. A 429 is the server pacing the client, not failing, so it
 * does not use up `retry.limit`; this cap and `maxThrottledMs` end a call throttled forever.
 */
export const THROTTLED_RETRIES_MAX = 50;

/** What a failed attempt was, as far as retrying goes. */
export type Failure =
  | { kind: "throttled"; retryAfterMs: number | undefined }
  | { kind: "unavailable"; retryAfterMs: number | undefined }
  | { kind: "network" }
  | { kind: "timeout" }
  | { kind: "final" };

/** What `error` was, with the statuses worth another attempt (`retry.statusCodes`). */
export function classify(error: unknown, statusCodes: readonly number[]): Failure {
  if (isHTTPError(error)) {
    const { status, headers } = error.response;
    if (!statusCodes.includes(status)) return { kind: "final" };
    const wait = retryAfterMs(headers);
    return status === 429
      ? { kind: "throttled", retryAfterMs: wait }
      : { kind: "unavailable", retryAfterMs: wait };
  }
  if (isTimeoutError(error)) return { kind: "timeout" };
  if (isNetworkError(error)) return { kind: "network" };
  return { kind: "final" };
}

/** The retries one call has made so far. */
export interface CallRetries {
  /** Retries after failures (5xx, network errors, timeouts). */
  failures: number;
  /** Retries after 429s. */
  throttled: number;
  /** When the call's first 429 came. */
  throttledSince: number | undefined;
}

export type RetryDecision =
  /**
   * `why` replaces "(gave up after N attempts)" in the error's message; `holdUntil`: nobody
   * sharing the rate budget sends before then, this call's caller included.
   */
  | { retry: false; why?: string; holdUntil?: number }
  /** Wait `waitMs`; `holdUntil`: nobody sharing the rate budget sends before then. */
  | { retry: true; waitMs: number; holdUntil?: number };

export interface RetryContext {
  readonly method: HttpMethod;
  readonly options: ResolvedOptions;
  /** Time this client has spent waiting between retries, over all its calls. */
  readonly waitedMs: number;
  readonly now: number;
  readonly random: () => number;
}

const POST_THROTTLED =
  " (a POST answered 429 is not sent again by the client: its caller reads whether it was made first)";

/** Backoff before failure retry `n` (from 1), before jitter: `retry.delay`, capped. */
function backoffMs(options: ResolvedOptions, n: number): number {
  const { delay, backoffLimit } = options.retry;
  const wanted = delay(n);
  return Math.min(backoffLimit, Number.isFinite(wanted) && wanted > 0 ? wanted : 0);
}

/**
 * The wait after the `n`th 429 that said not how long: seconds, sized to the rate limit's
 * window (a tenth of it, doubling up to the whole window), with jitter over its upper half so
 * that clients throttled together do not come back together.
 */
export function throttledBackoffMs(options: ResolvedOptions, n: number, random: number): number {
  const window = options.rateLimit.intervalMs;
  const step = Math.max(window / 10, Math.min(1_000, window));
  return (0.5 + 0.5 * random) * Math.min(window, step * 2 ** (n - 1));
}

/**
 * Whether to send the call again after `failure`, and after how long:
 * - a 429 is pacing: waited out (`Retry-After`, or `throttledBackoffMs`) up to
 *   `THROTTLED_RETRIES_MAX` times and `maxThrottledMs` after the call's first one, and it
 *   holds everyone sharing the rate budget meanwhile;
 * - another of `retry.statusCodes`, a network error or a timeout is a failure: retried
 *   `retry.limit` times after `retry.delay` with full jitter (or its `Retry-After`), only for
 *   the `retry.methods` (a GET or a PUT): a POST or DELETE may have been carried out;
 * - nothing is retried once the client has waited `budgetMs` in all, nor a wait asked for
 *   beyond `maxRetryAfterMs`.
 */
export function decideRetry(
  failure: Failure,
  retries: CallRetries,
  context: RetryContext,
): RetryDecision {
  const { options, now, random } = context;
  const { limit, methods, maxRetryAfterMs, retryOnTimeout, budgetMs, maxThrottledMs } =
    options.retry;
  if (failure.kind === "final" || limit === 0) return { retry: false };
  // A POST or DELETE whose answer was lost may have been carried out; so may a POST answered
  // 429, which its caller reads back before it sends it again (the pacing still holds).
  if (failure.kind !== "throttled" && !methods.includes(lowerCase(context.method))) {
    return { retry: false };
  }
  if (context.method === "POST" && failure.kind === "throttled") {
    const asked = failure.retryAfterMs;
    const waitMs = asked ?? throttledBackoffMs(options, retries.throttled + 1, random());
    return {
      retry: false,
      holdUntil: now + Math.min(waitMs, maxRetryAfterMs),
      why: POST_THROTTLED,
    };
  }
  if (failure.kind === "timeout" && !retryOnTimeout) return { retry: false };
  if (context.waitedMs >= budgetMs) return { retry: false };
  const asked = "retryAfterMs" in failure ? failure.retryAfterMs : undefined;
  if (asked !== undefined && asked > maxRetryAfterMs) {
    return {
      retry: false,
      why: ` (it asked to wait ${Math.ceil(asked / 1000)} s, more than maxRetryAfterMs ${maxRetryAfterMs} ms)`,
    };
  }
  if (failure.kind === "throttled") {
    if (retries.throttled >= THROTTLED_RETRIES_MAX) return { retry: false };
    const n = retries.throttled + 1;
    const waitMs =
      asked === undefined
        ? throttledBackoffMs(options, n, random())
        : asked + random() * backoffMs(options, n);
    const since = retries.throttledSince ?? now;
    if (now + waitMs - since > maxThrottledMs) {
      const { limit: requests, intervalMs } = options.rateLimit;
      return {
        retry: false,
        why: ` (it kept answering 429 for ${Math.round((now - since) / 1000)} s, past ${Math.round(maxThrottledMs / 1000)} s, while this client sent at most ${requests} requests per ${intervalMs / 1000} s: another client may be sending with this key, or the service allows fewer)`,
      };
    }
    return { retry: true, waitMs, holdUntil: now + (asked ?? waitMs) };
  }
  if (retries.failures >= limit) return { retry: false };
  const n = retries.failures + 1;
  // After a server-directed wait, a jittered backoff on top: clients told the same second
  // would otherwise all come back in the same instant.
  const waitMs =
    asked === undefined
      ? random() * backoffMs(options, n)
      : asked + random() * backoffMs(options, n);
  return { retry: true, waitMs };
}

function lowerCase(method: HttpMethod): RetryMethod {
  return method.toLowerCase() as RetryMethod;
}
