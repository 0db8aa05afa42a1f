import { STATUS_CODES } from "node:http";
import ky, { isHTTPError, isNetworkError, isTimeoutError } from "ky";
import pLimit from "p-limit";
import { z } from "zod";
import { safeLine } from "../../safe-text";
import type { ApiErrorDetails } from "../errors/api-error";
import { DeadlineError } from "../errors/deadline-error";
import { httpErrorFor } from "../errors/http-errors";
import { NetworkError } from "../errors/network-error";
import { RedirectError } from "../errors/redirect-error";
import { ResponseTooLargeError } from "../errors/response-too-large-error";
import { ResponseValidationError } from "../errors/response-validation-error";
import { TimeoutError } from "../errors/timeout-error";
import type { HttpMethod } from "../routes";
import { ErrorBody } from "../schemas/error-body";
import { parseJsonBody, redactSecret, TooDeepError } from "./json-body";
import type { ResolvedOptions } from "./options";
import { createRateBudget } from "./rate-budget";
import { retryAfterMs } from "./retry-after";
import { type CallRetries, classify, decideRetry } from "./retry-policy";
import { sleep } from "./sleep";

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

const SERVER_MESSAGE_MAX = 300;

/** Same-origin redirects of a GET followed in a row before the call fails. */
const REDIRECTS_MAX = 5;

/** A 3xx answer, thrown from ky's hook so that `call` decides whether to follow it. */
class Redirected extends Error {
  constructor(
    readonly status: number,
    readonly location: string | null,
  ) {
    super(`redirect ${status}`);
  }
}

/** The deadline fell inside an attempt, a wait or a queue for a slot. */
class PastDeadline extends Error {}

/**
 * The HTTP layer: one loop per call that owns its retries (`decideRetry`), its rate budget
 * (`RateBudget`, shared by every client with the key) and the mapping of every failure to the
 * client's typed errors; ky sends each attempt once, with its timeout, and p-limit caps the
 * calls in flight. The API key lives only in this closure's ky instance; ky's own errors
 * (which hold the request and so the key) are never passed on, not even as `cause`. Each
 * attempt's timeout covers the whole answer, body included (`wholeBodyFetch`), and the
 * client's `deadline` bounds every call with its retries and waits.
 */
export function createTransport(options: ResolvedOptions): Transport {
  const inFlight = pLimit(options.concurrency);
  const budget = createRateBudget({
    ...options.rateLimit,
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    maxHoldMs: Math.max(options.retry.maxRetryAfterMs, options.rateLimit.intervalMs),
    attemptMs: options.timeoutMs,
  });
  // Time spent waiting between retries by every call of this client (RetryOptions.budgetMs).
  let waitedMs = 0;
  const { maxBodyBytes, maxItems } = options.limits;
  const api = ky.create({
    retry: 0,
    // Redirects are decided in `call`: none to another origin, none for a write.
    redirect: "manual",
    fetch: wholeBodyFetch(options.fetch ?? globalThis.fetch, maxBodyBytes),
    headers: {
      // ky would otherwise ask for text/* when the body is read as text.
      accept: "application/json",
      authorization: `Bearer ${options.apiKey}`,
      ...(options.accountId ? { "x-service-account": options.accountId } : {}),
    },
    hooks: {
      afterResponse: [
        ({ response }) => {
          if (response.status >= 300 && response.status < 400) {
            throw new Redirected(response.status, response.headers.get("location"));
          }
        },
      ],
    },
  });

  async function call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    const query = toQueryString(spec.query);
    const path = query ? `${spec.path}?${query}` : spec.path;
    const where = { operation: spec.operation, method: spec.method, path };
    const { deadline } = options;
    let attempts = 0;
    const retries: CallRetries = { failures: 0, throttled: 0, throttledSince: undefined };
    const late = () => new DeadlineError({ ...where, attempts, deadline: new Date(deadline ?? 0) });

    return inFlight(async () => {
      let url = options.baseUrl + path;
      for (let redirects = 0; ; ) {
        // A page dropped while it waited for a slot is never sent, nor a call past the deadline.
        spec.signal?.throwIfAborted();
        if (deadline !== undefined && Date.now() >= deadline) throw late();
        const slot = await budget.take(deadline, spec.signal);
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
          if (error instanceof PastDeadline) throw late();
          const now = Date.now();
          const failure = classify(error);
          const decision = decideRetry(failure, retries, {
            method: spec.method,
            options,
            waitedMs,
            now,
            random: Math.random,
          });
          if (!decision.retry)
            throw toApiError(error, { ...where, attempts }, options, decision.why);
          if (failure.kind === "throttled") {
            retries.throttled += 1;
            retries.throttledSince ??= now;
          } else retries.failures += 1;
          if (decision.holdUntil !== undefined) await budget.hold(decision.holdUntil);
          if (deadline !== undefined && now + decision.waitMs >= deadline) throw late();
          options.onRetry?.({
            ...where,
            retry: retries.failures + retries.throttled,
            reason: describe(error),
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

    /** One attempt, its timeout cut short by the deadline. */
    async function send(url: string): Promise<{ status: number; text: string }> {
      const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
      const timeout = Math.max(1, Math.min(options.timeoutMs, left));
      try {
        const response = await api(url, {
          method: spec.method,
          timeout,
          ...(spec.body === undefined ? {} : { json: spec.body }),
          ...(spec.signal ? { signal: spec.signal } : {}),
        });
        return { status: response.status, text: await response.text() };
      } catch (error) {
        if (isTimeoutError(error) && timeout < options.timeoutMs) throw new PastDeadline();
        throw error;
      }
    }
  }

  return { call };
}

/**
 * Where to go after a redirect, or why not: only a GET follows, only within the origin it
 * was sent to, and only `REDIRECTS_MAX` times.
 */
function redirectTarget(
  from: string,
  redirect: Redirected,
  redirects: number,
  where: ApiErrorDetails,
): string {
  const refuse = (location: string, why: string) => new RedirectError({ ...where, location, why });
  if (redirect.location === null) throw refuse("(no Location header)", "no address to follow");
  let target: URL;
  try {
    target = new URL(redirect.location, from);
  } catch {
    throw refuse(redirect.location, "not an address");
  }
  const origin = new URL(from);
  if (target.origin !== origin.origin) {
    throw refuse(
      target.href,
      `another origin than the API's (${origin.host} → ${target.host}); the client follows no redirect there, and never sends the key there`,
    );
  }
  if (where.method !== "GET") {
    throw refuse(target.href, `a ${where.method} is not sent again to another address`);
  }
  if (redirects >= REDIRECTS_MAX) throw refuse(target.href, `more than ${REDIRECTS_MAX} redirects`);
  return target.href;
}

/** Statuses whose response can carry no body. */
const BODILESS = [101, 204, 205, 304];

/** An answer refused for its size before it was read whole. */
class ResponseTooLarge extends Error {
  constructor(
    readonly status: number,
    readonly size: string,
  ) {
    super(`response too large: ${size}`);
  }
}

/**
 * `fetch` that resolves only once the whole body has arrived, refusing one over `max` bytes
 * (by its `Content-Length`, or as it is read). ky's timeout of each attempt races the fetch,
 * so it then covers the body too: a server that answers at once and sends its body a byte at
 * a time times out, and is retried, like one that never answers.
 */
function wholeBodyFetch(base: typeof fetch, max: number): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || BODILESS.includes(response.status)) return response;
    const declared = Number(response.headers.get("content-length"));
    if (declared > max) {
      void response.body.cancel().catch(() => undefined);
      throw new ResponseTooLarge(response.status, `a body of ${declared} bytes`);
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > max) {
        void reader.cancel().catch(() => undefined);
        throw new ResponseTooLarge(response.status, `a body of more than ${max} bytes`);
      }
      chunks.push(value);
    }
    return new Response(Buffer.concat(chunks), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function toQueryString(query: CallSpec<z.ZodType>["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params.toString();
}

function statusLine(status: number, statusText: string): string {
  return `${status} ${statusText || STATUS_CODES[status] || ""}`.trim();
}

function describe(error: unknown): string {
  if (isHTTPError(error)) return statusLine(error.response.status, error.response.statusText);
  if (isTimeoutError(error)) return "timeout";
  return "network error";
}

function parseBody<S extends z.ZodType>(
  schema: S,
  text: string,
  where: ApiErrorDetails,
  options: ResolvedOptions,
): z.output<S> {
  let json: unknown;
  try {
    json = text === "" ? undefined : parseJsonBody(text, options.limits.maxDepth, options.apiKey);
  } catch (cause) {
    if (cause instanceof TooDeepError) {
      throw new ResponseTooLargeError({
        ...where,
        limit: { name: "maxDepth", value: cause.maxDepth },
        size: `a body nested more than ${cause.maxDepth} levels deep`,
      });
    }
    throw new ResponseValidationError({
      ...where,
      cause,
      issues: [{ field: "", problem: "the body is not valid JSON" }],
    });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new ResponseValidationError({
    ...where,
    cause: parsed.error,
    issues: parsed.error.issues.map((issue) => ({
      field: z.core.toDotPath(issue.path),
      problem: issue.message,
    })),
  });
}

/**
 * The server's own explanation, so a refusal says why: `message` of the
 * `{ statusCode, error, message? }` body; else the body's validation detail (`details`,
 * `errors`, `issues` or `validation`, as frameworks name it) after `error`; else `error` alone
 * when it says more than the status text; else a short plain-text body. Anything else (HTML
 * error pages, other JSON) is tolerated and left out. A server that echoes the key back does
 * not get it, or any part of it, into our error text: the key is redacted before the message
 * is cut to its length, and the result is one line made safe for a terminal or a CI log.
 */
function serverMessage(data: unknown, apiKey: string, statusText: string): string | undefined {
  let message: string | undefined;
  const body = ErrorBody.partial().safeParse(data);
  if (body.success && body.data.message) message = body.data.message;
  else if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    const detail = validationDetail(data as Record<string, unknown>);
    const error = body.success ? body.data.error?.trim() : undefined;
    const saysMore = error && error.toLowerCase() !== statusText.trim().toLowerCase();
    message = [saysMore ? error : undefined, detail].filter(Boolean).join(": ") || undefined;
  } else if (typeof data === "string" && !data.trimStart().startsWith("<")) {
    message = data.trim().split("\n")[0];
  }
  if (!message) return undefined;
  const redacted = redactSecret(message, apiKey);
  const clipped =
    redacted.length > SERVER_MESSAGE_MAX ? `${redacted.slice(0, SERVER_MESSAGE_MAX)}…` : redacted;
  return safeLine(clipped);
}

/** Where error bodies put their validation problems, by the names frameworks use. */
const DETAIL_KEYS = ["details", "errors", "issues", "validation"] as const;

function validationDetail(body: Record<string, unknown>): string | undefined {
  for (const key of DETAIL_KEYS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "string") return value;
    try {
      return JSON.stringify(value);
    } catch {
      // Nested too deep to write out (ky parsed the error body as it came): not shown.
      return undefined;
    }
  }
  return undefined;
}

function toApiError(
  error: unknown,
  where: ApiErrorDetails,
  options: ResolvedOptions,
  why: string | undefined,
): unknown {
  if (isHTTPError(error)) {
    const { status, statusText, headers } = error.response;
    return httpErrorFor(
      {
        ...where,
        status,
        statusText,
        serverMessage: serverMessage(error.data, options.apiKey, statusText),
        retryAfterMs: retryAfterMs(headers),
        accountSent: options.accountId !== undefined,
      },
      why,
    );
  }
  if (isTimeoutError(error)) return new TimeoutError({ ...where, timeoutMs: options.timeoutMs });
  if (isNetworkError(error)) return new NetworkError({ ...where, cause: error.cause });
  // An abort by the caller, or a throw from a caller's hook: not ours to rename.
  return error;
}
