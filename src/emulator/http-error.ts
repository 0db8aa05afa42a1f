import type { ContentfulStatusCode } from "hono/utils/http-status";

const REASON: Partial<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** The reason phrase for a status code, used as the `error` member of error bodies. */
export function reasonPhrase(status: number): string {
  return REASON[status] ?? "Error";
}

/**
 * An error answered as `{ statusCode, error, message }`. Thrown anywhere in the emulator;
 * the app's single `onError` turns it into the response. `headers` are added to it
 * (`Retry-After`, `WWW-Authenticate`, `Allow`).
 */
export class ErrorResponse extends Error {
  override name = "ErrorResponse";
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string, id: string): ErrorResponse =>
  new ErrorResponse(404, `${what} ${id} not found`);
