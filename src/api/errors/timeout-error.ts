import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * The server's answer, headers and body, did not arrive whole within `timeoutMs`, on the last
 * attempt: a server that answers at once and then sends its body a byte at a time times out
 * like one that never answers.
 */
export class TimeoutError extends ApiError {
  override name = "TimeoutError";
  /** The per-attempt timeout that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(details: ApiErrorDetails & { timeoutMs: number }) {
    const tries = details.attempts && details.attempts > 1 ? ` (${details.attempts} attempts)` : "";
    super(
      `${details.operation}: ${details.method} ${details.path} failed: no complete response within ${details.timeoutMs} ms${tries}. Raise timeoutMs or check the service.`,
      details,
    );
    this.timeoutMs = details.timeoutMs;
  }
}
