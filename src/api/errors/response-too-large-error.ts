import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * The server sent more than the client reads (`ClientOptions.limits`: body size, list length,
 * nesting), refused whole rather than read into memory, the state or a deep recursion.
 */
export class ResponseTooLargeError extends ApiError {
  override name = "ResponseTooLargeError";
  /** The limit that was passed, and its name. */
  readonly limit: { name: "maxBodyBytes" | "maxItems" | "maxDepth"; value: number };

  constructor(
    details: ApiErrorDetails & {
      limit: { name: "maxBodyBytes" | "maxItems" | "maxDepth"; value: number };
      /** What was sent: a byte count (maybe only as far as it was read), a list length, a depth. */
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
