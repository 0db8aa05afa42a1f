import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * The server sent more than the client reads (`ClientOptions.limits`): a body over
 * `maxBodyBytes`, or a list over `maxItems`. Refused whole rather than read into memory or
 * into the stack's state.
 */
export class ResponseTooLargeError extends ApiError {
  override name = "ResponseTooLargeError";
  /** The limit that was passed, and its name. */
  readonly limit: { name: "maxBodyBytes" | "maxItems"; value: number };

  constructor(
    details: ApiErrorDetails & {
      limit: { name: "maxBodyBytes" | "maxItems"; value: number };
      /** What was sent: a byte count (maybe only as far as it was read) or a list length. */
      size: string;
    },
  ) {
    super(
      `${details.operation}: ${details.method} ${details.path} answered with ${details.size}, more than the client reads (${details.limit.name} ${details.limit.value}); refused.`,
      details,
    );
    this.limit = details.limit;
  }
}
