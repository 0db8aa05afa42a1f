import { z } from "zod";
import { SETTINGS } from "../../settings/catalog";
import { ClientOptionsError } from "../errors/client-options-error";

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

/**
 * Retry policy. A `GET` or `PUT` (of the whole incident or update) is sent again after any
 * retryable failure; a `POST` or `DELETE` only after a 429, which says the service did not
 * act on it (see `writeOutcomeUnknown`).
 */
export interface RetryOptions {
  /**
   * Retries after failures (502, 503, 504, network errors, timeouts) in one call. A 429 is the
   * server pacing the client and does not count: it is waited out up to
   * `THROTTLED_RETRIES_MAX` times, within `maxThrottledMs`. 0 turns retrying off altogether,
   * 429s included.
   * @default 3 (`SETTINGS.retries.clientDefault`)
   */
  limit?: number;
  /**
   * Base of the exponential backoff: retry n waits a random time in `[0, min(backoffLimitMs, baseDelayMs * 2^(n-1))]` (full jitter).
   * @default 300
   */
  baseDelayMs?: number;
  /**
   * Upper bound of one backoff wait, before jitter.
   * @default 10_000
   */
  backoffLimitMs?: number;
  /**
   * How long after its first 429 one call may still be waiting out the service's rate limit.
   * A 429 without `Retry-After` is waited out in seconds sized to `rateLimit.intervalMs` (a
   * tenth of it, doubling, with jitter); past this, the call fails with a `RateLimitError`
   * naming the client's limit.
   * @default twice `rateLimit.intervalMs` (120_000)
   */
  maxThrottledMs?: number;
  /**
   * Longest `Retry-After` wait the client accepts. A server asking for more fails the call at once
   * with a `RateLimitError`/`ServerError` that carries `retryAfterMs`, instead of hanging.
   * @default 60_000
   */
  maxRetryAfterMs?: number;
  /**
   * Whether a timed-out attempt is retried (a stalled connection is the commonest flaky-network failure).
   * @default true
   */
  onTimeout?: boolean;
  /**
   * Time one client may spend waiting between retries, over all its calls. Once it is used up,
   * a call fails at its next error instead of retrying, so an API that keeps failing cannot hold
   * a pipeline run for `limit` retries of every call.
   * @default 300_000
   */
  budgetMs?: number;
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
   * rate limiter does not count). A timed-out attempt is retried (see `RetryOptions.onTimeout`).
   * @default 10_000
   */
  timeoutMs?: number | undefined;
  /**
   * When every call must have ended, as a time (`Date` or epoch milliseconds): past it, no
   * attempt or retry starts, the attempt in flight is stopped, and the call fails with
   * `DeadlineError`. A command sets its whole run's deadline here, so a slow or throttling
   * server cannot hold it longer, whatever `timeoutMs`, the retries and `Retry-After` allow.
   * @default none
   * @example { deadline: Date.now() + 30 * 60_000 }
   */
  deadline?: Date | number | undefined;
  /** Retry policy; see `RetryOptions`. */
  retry?: RetryOptions | undefined;
  /**
   * The rate limit every HTTP attempt keeps, retries included: at most `limit` in any
   * `intervalMs`, a tenth of them at once and the rest spread evenly. `shared` (the default):
   * one budget for every client of this machine with the same key and base URL, other
   * processes included (a file in the user's runtime directory), so a Pulumi run's program and
   * provider plugin, and a report beside them, keep to the limit together.
   * @default { limit: 600, intervalMs: 60_000, shared: true } (`SETTINGS.rateLimit.default`: what the reference service allows)
   */
  rateLimit?: { limit: number; intervalMs: number; shared?: boolean | undefined } | undefined;
  /**
   * Most operations in flight at once; `errorGroups.allForCheck` fetches this many pages ahead.
   * @default 8 (`SETTINGS.concurrency.default`)
   */
  concurrency?: number | undefined;
  /** Called before each retry, e.g. to log it. Receives no secret. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** What the client reads of an answer; see `ResponseLimits`. */
  limits?: ResponseLimits | undefined;
}

/** What the client does unless told otherwise; the limits a person sets are the settings catalog's. */
export const DEFAULTS = {
  timeoutMs: 10_000,
  retry: {
    limit: SETTINGS.retries.clientDefault,
    baseDelayMs: 300,
    backoffLimitMs: 10_000,
    maxRetryAfterMs: 60_000,
    onTimeout: true,
    budgetMs: 300_000,
  },
  rateLimit: { limit: SETTINGS.rateLimit.default, intervalMs: 60_000, shared: true },
  concurrency: SETTINGS.concurrency.default,
  limits: { maxBodyBytes: 10 * 1024 * 1024, maxItems: 1_000, maxPages: 1_000, maxDepth: 64 },
} as const;

/** ClientOptions with every default applied. */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly accountId: string | undefined;
  readonly fetch: typeof fetch | undefined;
  readonly timeoutMs: number;
  /** Epoch milliseconds, or undefined for none. */
  readonly deadline: number | undefined;
  readonly retry: Required<RetryOptions>;
  readonly rateLimit: {
    readonly limit: number;
    readonly intervalMs: number;
    readonly shared: boolean;
  };
  readonly concurrency: number;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
  readonly limits: Required<ResponseLimits>;
}

const positiveInt = z.int().min(1);
const nonNegative = z.number().min(0);
const aFunction = z.custom<(...args: never[]) => unknown>(
  (value) => typeof value === "function",
  "must be a function",
);

const OptionsShape = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  apiKey: z.string().trim().min(1, "must not be empty"),
  accountId: z.string().trim().min(1, "must not be empty when given").optional(),
  fetch: aFunction.optional(),
  timeoutMs: positiveInt.optional(),
  deadline: z
    .union([z.date(), z.number().int().min(0)], { error: "must be a Date or epoch milliseconds" })
    .optional(),
  retry: z
    .strictObject({
      limit: z.int().min(SETTINGS.retries.min).max(SETTINGS.retries.max).optional(),
      baseDelayMs: nonNegative.optional(),
      backoffLimitMs: nonNegative.optional(),
      maxRetryAfterMs: nonNegative.optional(),
      onTimeout: z.boolean().optional(),
      budgetMs: nonNegative.optional(),
      maxThrottledMs: nonNegative.optional(),
    })
    .optional(),
  rateLimit: z
    .strictObject({ limit: positiveInt, intervalMs: positiveInt, shared: z.boolean().optional() })
    .optional(),
  concurrency: positiveInt.optional(),
  onRetry: aFunction.optional(),
  limits: z
    .strictObject({
      maxBodyBytes: positiveInt.optional(),
      maxItems: positiveInt.optional(),
      maxPages: positiveInt.optional(),
      maxDepth: positiveInt.optional(),
    })
    .optional(),
});

/** Checks the options and fills in defaults; throws `ClientOptionsError` naming each bad option. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  // Strip the key before zod sees it, so no message or issue could ever echo its value.
  const { apiKey, ...rest } = options ?? ({} as ClientOptions);
  const checked = OptionsShape.safeParse({
    ...rest,
    apiKey: typeof apiKey === "string" ? (apiKey.trim() ? "set" : "") : apiKey,
  });
  if (!checked.success) {
    throw new ClientOptionsError(
      `createClient: invalid options:\n${z.prettifyError(checked.error)}`,
    );
  }
  const rateLimit = { ...DEFAULTS.rateLimit, ...stripUndefined(options.rateLimit ?? {}) };
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    apiKey,
    accountId: options.accountId,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    deadline: options.deadline === undefined ? undefined : Number(options.deadline),
    retry: {
      ...DEFAULTS.retry,
      maxThrottledMs: 2 * rateLimit.intervalMs,
      ...stripUndefined(options.retry ?? {}),
    },
    rateLimit,
    concurrency: options.concurrency ?? DEFAULTS.concurrency,
    onRetry: options.onRetry,
    limits: { ...DEFAULTS.limits, ...stripUndefined(options.limits ?? {}) },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
