import type { ClientOptions } from "../api";

/** The connection and client tuning as the stack config gives them (`incident-sync:*`). */
export interface StackConnection {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  /** Retries per call. */
  retries?: number | undefined;
  /** Requests per minute. */
  rateLimit?: number | undefined;
  /** Calls in flight. */
  concurrency?: number | undefined;
}

/**
 * Client options from the stack config; the program's reads and the provider's writes both
 * build their client with it, so the same config means the same limits on both sides.
 */
export function clientOptionsOf(connection: StackConnection): ClientOptions {
  return {
    baseUrl: connection.baseUrl,
    apiKey: connection.apiKey,
    accountId: connection.accountId,
    ...(connection.retries === undefined ? {} : { retry: { limit: connection.retries } }),
    ...(connection.rateLimit === undefined
      ? {}
      : { rateLimit: { limit: connection.rateLimit, intervalMs: 60_000 } }),
    ...(connection.concurrency === undefined ? {} : { concurrency: connection.concurrency }),
  };
}
