import { z } from "zod";

/**
 * Error response body, from the service's public reference: `{ statusCode, error, message? }`,
 * where `error` is the status text ("Not Found") and `message` may be missing. The emulator
 * always sends a message; the client reads whatever explains the failure and tolerates any
 * other body.
 */
export const ErrorBody = z.object({
  statusCode: z.int(),
  error: z.string(),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
