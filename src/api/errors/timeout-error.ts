import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * The server's answer, headers and body, did not arrive whole within the client's `timeout`,
 * on the last attempt (a server that answers at once and then sends its body a byte at a time
 * times out like one that never answers); or, with `total`, the call with its retries did not
 * end within `totalTimeout`.
 */
export class TimeoutError extends ApiError {
  override name = "TimeoutError";
  /** The timeout that ran out, in milliseconds: `timeout`, or with `total`, `totalTimeout`. */
  readonly timeoutMs: number;
  /** The call's `totalTimeout` ran out, not one attempt's `timeout`. */
  readonly total: boolean;

  constructor(details: ApiErrorDetails & { timeoutMs: number; total?: boolean }) {
    const tries = details.attempts && details.attempts > 1 ? ` (${details.attempts} attempts)` : "";
    const what = details.total
      ? `not done within its totalTimeout of ${details.timeoutMs} ms, retries and waits included${tries}. Raise totalTimeout`
      : `no complete response within ${details.timeoutMs} ms${tries}. Raise timeout`;
    super(
      `${details.operation}: ${details.method} ${details.path} failed: ${what} or check the service.`,
      details,
    );
    this.timeoutMs = details.timeoutMs;
    this.total = details.total === true;
  }
}
