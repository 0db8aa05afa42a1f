import { UserError } from "../user-error";

/**
 * Raised when the Pulumi engine cannot be found, built or run. The message says what to do;
 * `cause` keeps the underlying failure for debugging.
 */
export class EngineError extends UserError {
  override name = "EngineError";
}
