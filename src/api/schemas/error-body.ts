import { z } from "zod";

/**
 * Error response body. The spec shows none (section 7); we decide on
 * `{ statusCode, error, message }`, which the emulator always sends. The client reads
 * `message` when it is there and tolerates any other body.
 */
export const ErrorBody = z.object({
  statusCode: z.int(),
  error: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
