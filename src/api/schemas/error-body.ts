import { z } from "zod";

/**
 * The reference's error body `{ statusCode, error, message? }` (`error`: the status text); the
 * client reads whatever explains a failure and tolerates any other body.
 */
export const ErrorBody = z.object({
  statusCode: z.int(),
  error: z.string(),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
