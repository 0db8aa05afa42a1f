/**
 * Raised when the Pulumi engine cannot be found, built or run. The message says what to do;
 * `cause` keeps the underlying failure for debugging.
 */
export class EngineError extends Error {
  override name = "EngineError";
}

/** Raised when an engine operation (up, preview, refresh, destroy) fails. */
export class EngineOperationError extends EngineError {
  override name = "EngineOperationError";

  constructor(
    readonly operation: string,
    readonly stackName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
