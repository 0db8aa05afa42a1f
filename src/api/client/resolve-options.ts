import { z } from "zod";
import { ClientOptionsError } from "../errors/client-options-error";
import { CLIENT_DEFAULTS } from "./defaults";
import type { ClientOptions, ResponseLimits, RetryEvent, RetryMethod } from "./options";

/*
 * The client's options checked once and completed with their defaults: every later use reads
 * the result (`ResolvedOptions`). Deprecated names still work, in ky's names from here on.
 */

/** What the client does unless told otherwise; the numbers a person also sets are `CLIENT_DEFAULTS`. */
export const DEFAULTS = {
  timeout: 10_000,
  retry: {
    limit: CLIENT_DEFAULTS.retryLimit,
    methods: ["get", "put"] as RetryMethod[],
    statusCodes: [429, 502, 503, 504],
    delay: (attemptCount: number) => 0.3 * 2 ** (attemptCount - 1) * 1000,
    backoffLimit: 10_000,
    retryOnTimeout: true,
    maxRetryAfterMs: 60_000,
    budgetMs: 300_000,
  },
  rateLimit: { limit: CLIENT_DEFAULTS.rateLimit, intervalMs: 60_000, shared: true },
  concurrency: CLIENT_DEFAULTS.concurrency,
  limits: { maxBodyBytes: 10 * 1024 * 1024, maxItems: 1_000, maxPages: 1_000, maxDepth: 64 },
} as const;

/** The retry policy with every default applied, in ky's names. */
export interface ResolvedRetry {
  readonly limit: number;
  readonly methods: readonly RetryMethod[];
  readonly statusCodes: readonly number[];
  readonly delay: (attemptCount: number) => number;
  readonly backoffLimit: number;
  readonly retryOnTimeout: boolean;
  readonly maxThrottledMs: number;
  readonly maxRetryAfterMs: number;
  readonly budgetMs: number;
}

/** ClientOptions with every default applied. */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly accountId: string | undefined;
  readonly fetch: typeof fetch | undefined;
  readonly timeout: number;
  readonly totalTimeout: number | undefined;
  /** Epoch milliseconds, or undefined for none. */
  readonly deadline: number | undefined;
  readonly retry: ResolvedRetry;
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
  timeout: positiveInt.optional(),
  timeoutMs: positiveInt.optional(),
  totalTimeout: positiveInt.optional(),
  deadline: z
    .union([z.date(), z.number().int().min(0)], { error: "must be a Date or epoch milliseconds" })
    .optional(),
  retry: z
    .strictObject({
      limit: z.int().min(0).max(CLIENT_DEFAULTS.retryLimitMax).optional(),
      methods: z
        .array(
          z.enum(["get", "put"], {
            error:
              "must be get or put: a post or delete may have been carried out when its answer is lost, so a post is never sent again and a delete only after a 429",
          }),
        )
        .optional(),
      statusCodes: z.array(z.int().min(400).max(599)).optional(),
      delay: aFunction.optional(),
      backoffLimit: nonNegative.optional(),
      retryOnTimeout: z.boolean().optional(),
      maxThrottledMs: nonNegative.optional(),
      maxRetryAfterMs: nonNegative.optional(),
      budgetMs: nonNegative.optional(),
      baseDelayMs: nonNegative.optional(),
      backoffLimitMs: nonNegative.optional(),
      onTimeout: z.boolean().optional(),
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

/** Deprecated option names, each with its replacement in ky's names. */
const RENAMED = [
  ["timeoutMs", "timeout"],
  ["retry.baseDelayMs", "retry.delay"],
  ["retry.backoffLimitMs", "retry.backoffLimit"],
  ["retry.onTimeout", "retry.retryOnTimeout"],
] as const;

const warnedRenamed = new Set<string>();

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
  checkRenamed(options);
  const rateLimit = { ...DEFAULTS.rateLimit, ...stripUndefined(options.rateLimit ?? {}) };
  const { baseDelayMs, backoffLimitMs, onTimeout, ...retry } = stripUndefined(options.retry ?? {});
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    apiKey,
    accountId: options.accountId,
    fetch: options.fetch,
    timeout: options.timeout ?? options.timeoutMs ?? DEFAULTS.timeout,
    totalTimeout: options.totalTimeout,
    deadline: options.deadline === undefined ? undefined : Number(options.deadline),
    retry: {
      ...DEFAULTS.retry,
      maxThrottledMs: 2 * rateLimit.intervalMs,
      ...(baseDelayMs === undefined
        ? {}
        : { delay: (attemptCount: number) => baseDelayMs * 2 ** (attemptCount - 1) }),
      ...(backoffLimitMs === undefined ? {} : { backoffLimit: backoffLimitMs }),
      ...(onTimeout === undefined ? {} : { retryOnTimeout: onTimeout }),
      ...retry,
    },
    rateLimit,
    concurrency: options.concurrency ?? DEFAULTS.concurrency,
    onRetry: options.onRetry,
    limits: { ...DEFAULTS.limits, ...stripUndefined(options.limits ?? {}) },
  };
}

/**
 * A deprecated name still works, once with a warning naming its replacement; given with its
 * replacement, it is an error, as the two could say different things.
 */
function checkRenamed(options: ClientOptions): void {
  const read = (path: string) =>
    path
      .split(".")
      .reduce<unknown>(
        (value, key) =>
          value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined,
        options,
      );
  const both = RENAMED.filter(([old, now]) => read(old) !== undefined && read(now) !== undefined);
  if (both.length > 0) {
    throw new ClientOptionsError(
      `createClient: invalid options:\n${both.map(([old, now]) => `✖ ${old} and ${now} are the same option: give ${now} alone (${old} is its deprecated name)`).join("\n")}`,
    );
  }
  for (const [old, now] of RENAMED) {
    if (read(old) === undefined || warnedRenamed.has(old)) continue;
    warnedRenamed.add(old);
    process.emitWarning(`createClient: ${old} is deprecated; use ${now}, ky's name for it.`, {
      type: "DeprecationWarning",
      code: "INCIDENT_SYNC_CLIENT_OPTION",
    });
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
