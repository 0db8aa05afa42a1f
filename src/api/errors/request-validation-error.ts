import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * A request refused locally, before anything was sent: a parameter or body outside the
 * spec. `problems` is the human-readable list (zod's `prettifyError` text).
 */
export class RequestValidationError extends ApiError {
  override name = "RequestValidationError";
  readonly problems: string;

  constructor(details: ApiErrorDetails & { problems: string }) {
    super(
      `${details.operation} refused before sending (${details.method} ${details.path}):\n${details.problems}`,
      { ...details, attempts: 0 },
    );
    this.problems = details.problems;
  }
}
