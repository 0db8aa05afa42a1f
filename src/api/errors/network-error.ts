import { ApiError, type ApiErrorDetails } from "./api-error";

function describeCause(cause: unknown): string {
  // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, ECONNRESET…) one level down.
  let current: unknown = cause;
  let text = "";
  while (current instanceof Error) {
    text = current.message || text;
    current = current.cause;
  }
  return text || "connection failed";
}

/** No HTTP response arrived: the connection was refused, reset or dropped, after every retry. */
export class NetworkError extends ApiError {
  override name = "NetworkError";

  constructor(details: ApiErrorDetails) {
    const tries =
      details.attempts && details.attempts > 1 ? ` after ${details.attempts} attempts` : "";
    super(
      `${details.method} ${details.path} failed: network error${tries}: ${describeCause(details.cause)}. Check that the API URL is right and the service is reachable.`,
      details,
    );
  }
}
