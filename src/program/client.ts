import type * as pulumi from "@pulumi/pulumi";
import { createClient, type MonitoringClient } from "../api";
import type { ProgramConfig } from "./config";

/** One API client for the program's reads, built inside the key's `apply` (so it is secret). */
export function programClient(config: ProgramConfig): pulumi.Output<MonitoringClient> {
  return config.apiKey.apply((apiKey) =>
    createClient({
      baseUrl: config.baseUrl,
      apiKey,
      accountId: config.accountId,
      ...(config.retries === undefined ? {} : { retry: { limit: config.retries } }),
      ...(config.rateLimit === undefined
        ? {}
        : { rateLimit: { limit: config.rateLimit, intervalMs: 60_000 } }),
      ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
    }),
  );
}
