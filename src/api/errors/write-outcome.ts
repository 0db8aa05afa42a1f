import { ApiError } from "./api-error";
import { NetworkError } from "./network-error";
import { TimeoutError } from "./timeout-error";

/** Codes of a connection that was never made: the request did not reach the service. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * Whether a failed write may have been carried out all the same: the service did not answer
 * (a timeout, a dropped connection) or answered 5xx, or it answered 2xx with a body the client
 * could not read. A 4xx says it was not (a POST answered 429 is read back all the same, by
 * the step machine, before it is sent again); neither was a request refused before
 * it was sent. A write that is not idempotent is sent again only after a read shows it was not.
 */
export function writeOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error instanceof TimeoutError) return true;
  if (error instanceof NetworkError) return !NOT_SENT.has(causeCode(error.cause) ?? "");
  if (error.attempts === 0) return false;
  return error.status === undefined || error.status >= 500 || error.status < 400;
}

function causeCode(cause: unknown): string | undefined {
  for (let current = cause; current instanceof Error; current = current.cause) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
