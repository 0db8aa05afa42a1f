/**
 * The base of every error a user can fix: its message says what to do, so the CLI prints it
 * alone (exit 1); anything else is a bug. A leaf any layer may extend.
 */
export class UserError extends Error {
  override name = "UserError";
}
