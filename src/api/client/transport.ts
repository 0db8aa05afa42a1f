import { STATUS_CODES } from "node:http";
import ky, { isHTTPError, isNetworkError, isTimeoutError } from "ky";
import pLimit from "p-limit";
import pThrottle from "p-throttle";
import type { z } from "zod";
import type { ApiErrorDetails } from "../errors/api-error";
import { httpErrorFor } from "../errors/http-errors";
import { NetworkError } from "../errors/network-error";
import { RedirectError } from "../errors/redirect-error";
import { ResponseTooLargeError } from "../errors/response-too-large-error";
import { ResponseValidationError } from "../errors/response-validation-error";
import { TimeoutError } from "../errors/timeout-error";
import type { HttpMethod } from "../routes";
import { escapeLine } from "../schemas/characters";
import { ErrorBody } from "../schemas/error-body";
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
    const { maxBodyBytes, maxItems } = options.limits;

    return inFlight(async () => {
      // A page dropped while it waited for a slot is never sent.
      spec.signal?.throwIfAborted();
      let status = 0;
      let text = "";
      let url = options.baseUrl + path;
      for (let redirects = 0; ; redirects++) {
        try {
          ({ status, text } = await send(url));
          break;
        } catch (error) {
          if (!(error instanceof Redirected))
            throw toApiError(error, { ...where, attempts }, options);
          url = redirectTarget(url, error, redirects, { ...where, attempts, status: error.status });
        }
      }
      const data = parseBody(spec.schema, text, { ...where, status, attempts });
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
              const tooLarge = (size: string) =>
                new ResponseTooLargeError({
                  ...where,
                  status: response.status,
                  attempts,
                  limit: { name: "maxBodyBytes", value: maxBodyBytes },
                  size,
                });
              const declared = Number(response.headers.get("content-length"));
              if (declared > maxBodyBytes) throw tooLarge(`a body of ${declared} bytes`);
              return cappedBody(response, maxBodyBytes, () =>
                tooLarge(`a body of more than ${maxBodyBytes} bytes`),
              );
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

/** The response, its body cut off with `tooLarge()` once it passes `max` bytes. */
function cappedBody(response: Response, max: number, tooLarge: () => Error): Response {
  if (!response.body) return response;
  let bytes = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes > max) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
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
): z.output<S> {
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch (cause) {
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
      field: fieldPath(issue.path),
      problem: issue.message,
    })),
  });
}

/** `[0].events[2].timestamp`: the path of a field as a person reads it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("")
    .replace(/^\./, "");
}

/**
 * The server's own explanation, so a refusal says why: `message` of the
 * `{ statusCode, error, message? }` body; else the body's validation detail (`details`,
 * `errors`, `issues` or `validation`, as frameworks name it) after `error`; else `error` alone
 * when it says more than the status text; else a short plain-text body. Anything else (HTML
 * error pages, other JSON) is tolerated and left out. A server that echoes the key back does
 * not get it into our error text.
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
  const clipped =
    message.length > SERVER_MESSAGE_MAX ? `${message.slice(0, SERVER_MESSAGE_MAX)}…` : message;
  // Shown on terminals and in CI logs: no escape sequence, and no line of its own.
  return escapeLine(clipped.split(apiKey).join("[redacted]"));
}

/** Where error bodies put their validation problems, by the names frameworks use. */
const DETAIL_KEYS = ["details", "errors", "issues", "validation"] as const;

function validationDetail(body: Record<string, unknown>): string | undefined {
  for (const key of DETAIL_KEYS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    return typeof value === "string" ? value : JSON.stringify(value);
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
  if (isTimeoutError(error)) return new TimeoutError({ ...where, timeoutMs: options.timeoutMs });
  if (isNetworkError(error)) return new NetworkError({ ...where, cause: error.cause });
  // An abort by the caller, or a throw from a caller's hook: not ours to rename.
  return error;
}
