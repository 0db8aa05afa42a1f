import { STATUS_CODES } from "node:http";
import { isHTTPError, isNetworkError, isTimeoutError } from "ky";
import type { ApiErrorDetails } from "../errors/api-error";
import { httpErrorFor } from "../errors/http-errors";
import { NetworkError } from "../errors/network-error";
import { TimeoutError } from "../errors/timeout-error";
import { serverMessage } from "./answer-body";
import type { ResolvedOptions } from "./resolve-options";
import { retryAfterMs } from "./retry-after";

/*
 * The client's typed error for an attempt that failed, in place of ky's (which hold the
 * request, and so the key, and are never passed on, not even as `cause`).
 */

function statusLine(status: number, statusText: string): string {
  return `${status} ${statusText || STATUS_CODES[status] || ""}`.trim();
}

/** Why an attempt failed, as `onRetry` says it: `503 Service Unavailable`, `timeout`. */
export function describeFailure(error: unknown): string {
  if (isHTTPError(error)) return statusLine(error.response.status, error.response.statusText);
  if (isTimeoutError(error)) return "timeout";
  return "network error";
}

/** `why` replaces "(gave up after N attempts)" in an HTTP error's message. */
export function toApiError(
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
  if (isTimeoutError(error)) return new TimeoutError({ ...where, timeoutMs: options.timeout });
  if (isNetworkError(error)) return new NetworkError({ ...where, cause: error.cause });
  // An abort by the caller, or a throw from a caller's hook: not ours to rename.
  return error;
}
