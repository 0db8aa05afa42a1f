/**
 * The base of every error a user can fix: its message says what went wrong and what to do,
 * so the command line prints it alone (exit 1), without a stack trace; anything else is a
 * bug. A leaf with no imports, as ky's `KyError` or Hono's `HTTPException`, so that every
 * layer (the API client and the emulator included) can extend it.
 */
export class UserError extends Error {
  override name = "UserError";
}
