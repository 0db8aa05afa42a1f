import ky, { isTimeoutError } from "ky";
import pLimit from "p-limit";
import type { z } from "zod";
import { DeadlineError } from "../errors/deadline-error";
import { ResponseTooLargeError } from "../errors/response-too-large-error";
import { TimeoutError } from "../errors/timeout-error";
import type { HttpMethod } from "../routes";
import { parseBody } from "./answer-body";
import { describeFailure, toApiError } from "./attempt-errors";
import { createRateBudget } from "./rate-budget";
import { Redirected, redirectTarget } from "./redirects";
import type { ResolvedOptions } from "./resolve-options";
import { type CallRetries, classify, decideRetry } from "./retry-policy";
import { sleep } from "./sleep";
import { ResponseTooLarge, wholeBodyFetch } from "./whole-body-fetch";

/** One HTTP call of an operation, described with already-validated, already-encoded parts. */
export interface CallSpec<S extends z.ZodType> {
  /** The client operation, named in errors: `errorGroups.get`. */
  readonly operation: string;
  readonly method: HttpMethod;
  /** Path under the base URL, starting with `/v1/`, path parameters already URL-encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** Schema of a successful response body. */
  readonly schema: S;
  /** Aborts the call (used to drop prefetched pages nobody will read). */
  readonly signal?: AbortSignal | undefined;
}

export interface Transport {
  call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>>;
}

/** The call's end (its `totalTimeout`, or the client's `deadline`) fell inside an attempt. */
class PastEnd extends Error {}

/**
 * The HTTP layer: one loop per call that owns its retries (`decideRetry`, in ky's option
 * names), its rate budget (`RateBudget`, shared by every client with the key) and the mapping
 * of every failure to the client's typed errors (`attempt-errors.ts`); ky sends each attempt
 * once, with its `timeout` and the `totalTimeout` left to the call, and p-limit caps the calls
 * in flight. ARCHITECTURE.md says why ky's own retry cannot be that loop. The API key lives
 * only in this closure's ky instance. Each attempt's timeout covers the whole answer, body
 * included (`wholeBodyFetch`).
 */
export function createTransport(options: ResolvedOptions): Transport {
  const inFlight = pLimit(options.concurrency);
  const budget = createRateBudget({
    ...options.rateLimit,
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    maxHoldMs: Math.max(options.retry.maxRetryAfterMs, options.rateLimit.intervalMs),
    attemptMs: options.timeout,
  });
  // Time spent waiting between retries by every call of this client (RetryOptions.budgetMs).
  let waitedMs = 0;
  const { maxBodyBytes, maxItems } = options.limits;
  const api = ky.create({
    retry: 0,
    timeout: options.timeout,
    // Redirects are decided in `call`: none to another origin, none for a write.
    redirect: "manual",
    fetch: refuseRedirects(wholeBodyFetch(options.fetch ?? globalThis.fetch, maxBodyBytes)),
    headers: {
      // ky would otherwise ask for text/* when the body is read as text.
      accept: "application/json",
      authorization: `Bearer ${options.apiKey}`,
      ...(options.accountId ? { "x-service-account": options.accountId } : {}),
    },
  });

  async function call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    const query = toQueryString(spec.query);
    const path = query ? `${spec.path}?${query}` : spec.path;
    const where = { operation: spec.operation, method: spec.method, path };
    const end = callEnd(options, Date.now());
    let attempts = 0;
    const retries: CallRetries = { failures: 0, throttled: 0, throttledSince: undefined };
    const late = () =>
      end?.by === "deadline"
        ? new DeadlineError({ ...where, attempts, deadline: new Date(end.at) })
        : new TimeoutError({
            ...where,
            attempts,
            timeoutMs: options.totalTimeout ?? 0,
            total: true,
          });

    return inFlight(async () => {
      let url = options.baseUrl + path;
      for (let redirects = 0; ; ) {
        // A page dropped while it waited for a slot is never sent, nor a call past its end.
        spec.signal?.throwIfAborted();
        if (end !== undefined && Date.now() >= end.at) throw late();
        const slot = await budget.take(end?.at, spec.signal);
        if (slot === undefined) throw late();
        attempts += 1;
        let answer: { status: number; text: string };
        try {
          answer = await send(url).finally(() => slot.answered());
        } catch (error) {
          if (error instanceof Redirected) {
            const status = error.status;
            url = redirectTarget(url, error, redirects++, { ...where, attempts, status });
            continue;
          }
          if (error instanceof ResponseTooLarge) {
            throw new ResponseTooLargeError({
              ...where,
              status: error.status,
              attempts,
              limit: { name: "maxBodyBytes", value: maxBodyBytes },
              size: error.size,
            });
          }
          if (error instanceof PastEnd) throw late();
          const now = Date.now();
          const failure = classify(error, options.retry.statusCodes);
          const decision = decideRetry(failure, retries, {
            method: spec.method,
            options,
            waitedMs,
            now,
            random: Math.random,
          });
          if (!decision.retry) {
            if (decision.holdUntil !== undefined) await budget.hold(decision.holdUntil);
            throw toApiError(error, { ...where, attempts }, options, decision.why);
          }
          if (failure.kind === "throttled") {
            retries.throttled += 1;
            retries.throttledSince ??= now;
          } else retries.failures += 1;
          if (decision.holdUntil !== undefined) await budget.hold(decision.holdUntil);
          if (end !== undefined && now + decision.waitMs >= end.at) throw late();
          options.onRetry?.({
            ...where,
            retry: retries.failures + retries.throttled,
            reason: describeFailure(error),
          });
          await sleep(decision.waitMs, spec.signal);
          waitedMs += decision.waitMs;
          continue;
        }
        const data = parseBody(
          spec.schema,
          answer.text,
          { ...where, ...answer, attempts },
          options,
        );
        if (Array.isArray(data) && data.length > maxItems) {
          throw new ResponseTooLargeError({
            ...where,
            status: answer.status,
            attempts,
            limit: { name: "maxItems", value: maxItems },
            size: `${data.length} items`,
          });
        }
        return data;
      }
    });

    /** One attempt, ky cutting its `timeout` to the `totalTimeout` the call has left. */
    async function send(url: string): Promise<{ status: number; text: string }> {
      const left = end === undefined ? undefined : Math.max(1, end.at - Date.now());
      try {
        const response = await api(url, {
          method: spec.method,
          ...(left === undefined ? {} : { totalTimeout: left }),
          ...(spec.body === undefined ? {} : { json: spec.body }),
          ...(spec.signal ? { signal: spec.signal } : {}),
        });
        return { status: response.status, text: await response.text() };
      } catch (error) {
        if (isTimeoutError(error) && left !== undefined && left < options.timeout) {
          throw new PastEnd();
        }
        throw error;
      }
    }
  }

  return { call };
}

/**
 * Throws each 3xx answer as `Redirected`, for `call` to decide on. Checked in the fetch, not in
 * a ky `afterResponse` hook: ky hands each hook a clone of the answer, a copy of every body.
 */
function refuseRedirects(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status >= 300 && response.status < 400) {
      throw new Redirected(response.status, response.headers.get("location"));
    }
    return response;
  };
}

/** When a call started at `now` must have ended, and which option says so, if any. */
function callEnd(
  options: ResolvedOptions,
  now: number,
): { at: number; by: "deadline" | "totalTimeout" } | undefined {
  const total = options.totalTimeout === undefined ? undefined : now + options.totalTimeout;
  const { deadline } = options;
  if (deadline !== undefined && (total === undefined || deadline <= total)) {
    return { at: deadline, by: "deadline" };
  }
  return total === undefined ? undefined : { at: total, by: "totalTimeout" };
}

function toQueryString(query: CallSpec<z.ZodType>["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params.toString();
}
