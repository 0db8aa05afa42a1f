import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * The client's `deadline` passed before the call ended: it was not sent, or its attempt in
 * flight (or its wait before a retry) was stopped then. A command's deadline bounds all its
 * calls together, whatever each one's own timeout and retries would allow.
 */
export class DeadlineError extends ApiError {
  override name = "DeadlineError";
  /** The deadline that passed. */
  readonly deadline: Date;

  constructor(details: ApiErrorDetails & { deadline: Date }) {
    const tries = details.attempts && details.attempts > 1 ? ` (${details.attempts} attempts)` : "";
    super(
      `${details.operation}: ${details.method} ${details.path} stopped at the deadline, ${details.deadline.toISOString()}${tries}.`,
      details,
    );
    this.deadline = details.deadline;
  }
}
