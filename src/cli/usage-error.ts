import { UserError } from "../user-error";

/**
 * Flags that cannot work together, or a setting a command cannot run without; the message
 * says which and what to do. Checks commander cannot make on one option alone.
 */
export class UsageError extends UserError {
  override name = "UsageError";
}
