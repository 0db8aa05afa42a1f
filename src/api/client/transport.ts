import { STATUS_CODES } from "node:http";
import ky, { isHTTPError, isNetworkError, isTimeoutError } from "ky";
import pLimit from "p-limit";
import pThrottle from "p-throttle";
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
import { retryAfterMs } from "./retry-after";
import { isThrottled, kyRetryOptions, RETRY_STATUSES, RetryCounter } from "./retry-policy";

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

/** Methods that may be sent again whatever happened to the first attempt. */
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "PUT"]);

/** ky's total timeout may fire a few milliseconds before the deadline by the clock. */
const DEADLINE_SLACK_MS = 50;

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

/**
 * The HTTP layer: ky for timeouts and retries, p-limit for the concurrency cap, p-throttle
 * for the rate limit, zod for the response contract, and the mapping of every failure to
 * the client's typed errors. The API key lives only in this closure's ky instance; ky's own
 * errors (which hold the request and so the key) are never passed on, not even as `cause`.
 * Each attempt's timeout covers the whole answer, body included (`wholeBodyFetch`), and the
 * client's `deadline` bounds every call with its retries and waits.
 */
export function createTransport(options: ResolvedOptions): Transport {
  const inFlight = pLimit(options.concurrency);
  // Strict: no interval-long window ever holds more than `limit` requests, as a server counts them.
  const nextSlot = pThrottle({
    limit: options.rateLimit.limit,
    interval: options.rateLimit.intervalMs,
    strict: true,
  })(() => undefined);
  const retry = kyRetryOptions(options);
  // Time spent waiting between retries by every call of this client (see RetryOptions.budgetMs).
  let retryWaitMs = 0;
  const { maxBodyBytes, maxItems } = options.limits;
  const api = ky.create({
    timeout: options.timeoutMs,
    retry,
    // Redirects are decided in `call`: none to another origin, none for a write.
    redirect: "manual",
    ...(options.fetch ? { fetch: options.fetch } : {}),
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
    let attempts = 1;
    let failedAt = 0;
    const counter = new RetryCounter(options);
    const pastDeadline = () =>
      options.deadline !== undefined && Date.now() >= options.deadline
        ? new DeadlineError({ ...where, attempts, deadline: new Date(options.deadline) })
        : undefined;

    const tooLarge = (status: number, size: string) =>
      new ResponseTooLargeError({
        ...where,
        status,
        attempts,
        limit: { name: "maxBodyBytes", value: maxBodyBytes },
        size,
      });

    return inFlight(async () => {
      // A page dropped while it waited for a slot is never sent, nor a call past the deadline.
      spec.signal?.throwIfAborted();
      const late = pastDeadline();
      if (late) throw late;
      let status = 0;
      let text = "";
      let url = options.baseUrl + path;
      for (let redirects = 0; ; redirects++) {
        try {
          ({ status, text } = await send(url));
          break;
        } catch (error) {
          if (!(error instanceof Redirected))
            throw pastDeadline() ?? toApiError(error, { ...where, attempts }, options);
          url = redirectTarget(url, error, redirects, { ...where, attempts, status: error.status });
        }
      }
      const data = parseBody(spec.schema, text, { ...where, status, attempts }, options);
      if (Array.isArray(data) && data.length > maxItems) {
        throw new ResponseTooLargeError({
          ...where,
          status,
          attempts,
          limit: { name: "maxItems", value: maxItems },
          size: `${data.length} items`,
        });
      }
      return data;
    });

    async function send(url: string): Promise<{ status: number; text: string }> {
      const pending = api(url, {
        method: spec.method,
        fetch: wholeBodyFetch(options.fetch ?? globalThis.fetch, maxBodyBytes, tooLarge),
        // ky ends the attempts, their timeouts and the waits between them at the deadline.
        ...(options.deadline === undefined
          ? {}
          : { totalTimeout: Math.max(1, options.deadline - Date.now()) }),
        retry: {
          ...retry,
          shouldRetry: (state) => {
            // A write that is not idempotent may have been carried out unless the service
            // said it was not (429): the caller reads before it sends it again.
            if (!IDEMPOTENT.has(spec.method) && !isThrottled(state.error)) return false;
            if (retryWaitMs >= options.retry.budgetMs) return false;
            if (!counter.allows(state.error)) return false;
            failedAt = Date.now();
            return retry.shouldRetry?.(state);
          },
        },
        ...(spec.body === undefined ? {} : { json: spec.body }),
        ...(spec.signal ? { signal: spec.signal } : {}),
        hooks: {
          // Every attempt, retries included, takes a rate-limiter slot just before it is sent,
          // outside ky's per-attempt timeout, so queueing never counts as a timeout.
          beforeRequest: [async () => void (await nextSlot())],
          beforeRetry: [
            async ({ error, retryCount }) => {
              const spread = counter.spreadAfterServerWait(error, retryCount);
              if (spread > 0) await new Promise((resolve) => setTimeout(resolve, spread));
              retryWaitMs += Date.now() - failedAt;
              attempts = retryCount + 1;
              options.onRetry?.({ ...where, retry: retryCount, reason: describe(error) });
              await nextSlot();
            },
          ],
          afterResponse: [
            ({ response }) => {
              if (response.status >= 300 && response.status < 400) {
                throw new Redirected(response.status, response.headers.get("location"));
              }
            },
          ],
        },
      });
      const response = await pending;
      return { status: response.status, text: await response.text() };
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

/**
 * `fetch` that resolves only once the whole body has arrived, refusing one over `max` bytes
 * (by its `Content-Length`, or as it is read) with `tooLarge`. ky's timeout of each attempt
 * races the fetch, so it then covers the body too: a server that answers at once and sends
 * its body a byte at a time times out, and is retried, like one that never answers.
 */
function wholeBodyFetch(
  base: typeof fetch,
  max: number,
  tooLarge: (status: number, size: string) => Error,
): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || BODILESS.includes(response.status)) return response;
    const declared = Number(response.headers.get("content-length"));
    if (declared > max) {
      void response.body.cancel().catch(() => undefined);
      throw tooLarge(response.status, `a body of ${declared} bytes`);
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
        throw tooLarge(response.status, `a body of more than ${max} bytes`);
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

function describe(error: Error): string {
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

function toApiError(error: unknown, where: ApiErrorDetails, options: ResolvedOptions): unknown {
  if (isHTTPError(error)) {
    const { status, statusText, headers } = error.response;
    const wait = retryAfterMs(headers);
    const tooLong =
      RETRY_STATUSES.includes(status) && wait !== undefined && wait > options.retry.maxRetryAfterMs;
    return httpErrorFor(
      {
        ...where,
        status,
        statusText,
        serverMessage: serverMessage(error.data, options.apiKey, statusText),
        retryAfterMs: wait,
      },
      tooLong
        ? ` (it asked to wait ${Math.ceil(wait / 1000)} s, more than maxRetryAfterMs ${options.retry.maxRetryAfterMs} ms)`
        : undefined,
    );
  }
  if (isTimeoutError(error)) {
    if (options.deadline !== undefined && Date.now() >= options.deadline - DEADLINE_SLACK_MS) {
      return new DeadlineError({ ...where, deadline: new Date(options.deadline) });
    }
    return new TimeoutError({ ...where, timeoutMs: options.timeoutMs });
  }
  if (isNetworkError(error)) return new NetworkError({ ...where, cause: error.cause });
  // An abort by the caller, or a throw from a caller's hook: not ours to rename.
  return error;
}
