/**
 * The client's own numbers that a person may also set through incident-sync's settings: the
 * settings catalog (`src/settings/catalog.ts`) takes its defaults and bounds from here, so the
 * client, the CLI's flags and the stack config agree. No imports, so `--help` reads it without
 * loading the client.
 */
export const CLIENT_DEFAULTS = {
  /** Requests per minute: what the service allows a key. */
  rateLimit: 600,
  /** Calls in flight, per client. */
  concurrency: 8,
  /** Retries per call after a failure, for a client made with `createClient`. */
  retryLimit: 3,
  /** Most retries per call a client takes. */
  retryLimitMax: 20,
} as const;
