import { STATUS_CODES } from "node:http";
import { ApiError, type ApiErrorDetails } from "./api-error";

/** Details of an error response: the status is always known. */
export interface HttpErrorDetails extends ApiErrorDetails {
  readonly status: number;
  /** The reason phrase the server sent, used when it is not the standard one. */
  readonly statusText?: string | undefined;
}

/** What to do next, per status; the server's message already says what went wrong. */
const HINTS: Readonly<Record<number, string>> = {
  401: "Check the API key the client was created with.",
  403: "Check that the API key may act for this account (accountId, sent as x-service-account).",
};

/** A personal API key acts for no account of its own: a refusal may only mean none was named. */
const NO_ACCOUNT =
  "No account was sent (x-service-account), and a personal API key needs one: set the account the key acts for (accountId).";

function adviceFor(details: HttpErrorDetails & ApiErrorDetails): string | undefined {
  if (details.accountSent !== false) return HINTS[details.status];
  if (details.status === 401) return `${HINTS[401]} ${NO_ACCOUNT}`;
  return details.status === 403 ? NO_ACCOUNT : HINTS[details.status];
}

function reasonPhrase(status: number, statusText: string | undefined): string {
  return statusText?.trim() || STATUS_CODES[status] || "Error";
}

/**
 * `PUT /v1/status-pages/incidents/inc_1 failed: 404 Not Found: incident not found`,
 * followed by a hint where one helps.
 */
export function httpErrorMessage(details: HttpErrorDetails, hint?: string): string {
  const head = `${details.method} ${details.path} failed: ${details.status} ${reasonPhrase(details.status, details.statusText)}`;
  const withServer = details.serverMessage ? `${head}: ${details.serverMessage}` : head;
  const advice = hint ?? adviceFor(details);
  return advice ? `${withServer}. ${advice}` : withServer;
}

/** 400: the server refused the request as malformed. */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
  declare readonly status: number;
}

/** 401: the API key is missing, unknown or revoked. */
export class UnauthorizedError extends ApiError {
  override name = "UnauthorizedError";
  declare readonly status: number;
}

/** 403: the key is valid but may not act on this resource or account. */
export class ForbiddenError extends ApiError {
  override name = "ForbiddenError";
  declare readonly status: number;
}

/** 404: the incident, check or error group does not exist (for this account). */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
  declare readonly status: number;
}

/** 409: the request conflicts with the current state of the resource. */
export class ConflictError extends ApiError {
  override name = "ConflictError";
  declare readonly status: number;
}

/** 429: the server's rate limit held after every retry, or asked for a longer wait than allowed. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  declare readonly status: number;
  /** The wait the server asked for through `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;
  /** Why the client stopped waiting, when it was more than the count of attempts. */
  readonly gaveUp: string | undefined;

  constructor(
    message: string,
    details: HttpErrorDetails & { retryAfterMs?: number | undefined; gaveUp?: string | undefined },
  ) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
    this.gaveUp = details.gaveUp;
  }
}

/** 5xx: the service failed; 502, 503 and 504 are retried before this is thrown. */
export class ServerError extends ApiError {
  override name = "ServerError";
  declare readonly status: number;
}

/**
 * Builds the error class that matches an error response's status. `why` replaces the
 * "(gave up after N attempts)" note on retried statuses.
 */
export function httpErrorFor(
  details: HttpErrorDetails & { retryAfterMs?: number | undefined },
  why?: string,
): ApiError {
  const tries =
    why ??
    (details.attempts && details.attempts > 1
      ? ` (gave up after ${details.attempts} attempts)`
      : "");
  switch (details.status) {
    case 400:
      return new BadRequestError(httpErrorMessage(details), details);
    case 401:
      return new UnauthorizedError(httpErrorMessage(details), details);
    case 403:
      return new ForbiddenError(httpErrorMessage(details), details);
    case 404:
      return new NotFoundError(httpErrorMessage(details), details);
    case 409:
      return new ConflictError(httpErrorMessage(details), details);
    case 429:
      return new RateLimitError(
        httpErrorMessage(
          details,
          `The service is rate limiting this key${tries}; lower the client's rateLimit or try again later.`,
        ),
        { ...details, gaveUp: why?.trim().replace(/^\((.*)\)$/, "$1") || undefined },
      );
    default:
      if (details.status >= 500) {
        return new ServerError(
          httpErrorMessage(details, `The service failed${tries}; try again later.`),
          details,
        );
      }
      return new ApiError(httpErrorMessage(details), details);
  }
}
