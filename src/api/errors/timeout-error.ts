import { ApiError, type ApiErrorDetails } from "./api-error";

/** The server did not answer within `timeoutMs`, on the last attempt. */
export class TimeoutError extends ApiError {
  override name = "TimeoutError";
  /** The per-attempt timeout that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(details: ApiErrorDetails & { timeoutMs: number }) {
    const tries = details.attempts && details.attempts > 1 ? ` (${details.attempts} attempts)` : "";
    super(
      `${details.method} ${details.path} failed: no response within ${details.timeoutMs} ms${tries}. Raise timeoutMs or check the service.`,
      details,
    );
    this.timeoutMs = details.timeoutMs;
  }
}
