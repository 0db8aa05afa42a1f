/**
 * Allowed values of the client limits, wherever they are set (stack config, flag, variable).
 * A file of its own, with no imports, so the CLI's `--help` can show them without loading zod.
 */
export const LIMITS = {
  rateLimit: { min: 1, max: 60_000, unit: "requests per minute" },
  concurrency: { min: 1, max: 64, unit: "calls in flight" },
} as const;
