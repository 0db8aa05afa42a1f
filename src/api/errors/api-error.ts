import { UserError } from "../../user-error";

/** What every error raised by the API client knows about the request it belongs to. */
export interface ApiErrorDetails {
  /** The client operation, e.g. `incidents.update`. */
  readonly operation: string;
  /** The HTTP method, e.g. `PUT`. */
  readonly method: string;
  /** The request path relative to the base URL, with its query string when there is one. */
  readonly path: string;
  /** The HTTP status of the last response, when there was one. */
  readonly status?: number | undefined;
  /** The server's `message` from the error body, when it sent one. */
  readonly serverMessage?: string | undefined;
  /** How many HTTP attempts were made (0 when the request was refused locally). */
  readonly attempts?: number | undefined;
  /** Whether the request named its account (`x-service-account`), when it was sent. */
  readonly accountSent?: boolean | undefined;
  readonly cause?: unknown;
}

/**
 * Base class of every error the API client throws, so callers can catch them with one
 * `instanceof ApiError` and still switch on the subclass. No error ever carries the API key:
 * the request object (which holds the `Authorization` header) is deliberately not kept.
 */
export class ApiError extends UserError {
  override name = "ApiError";
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly attempts: number;
  readonly accountSent: boolean | undefined;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.operation = details.operation;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.attempts = details.attempts ?? 0;
    this.accountSent = details.accountSent;
  }
}
