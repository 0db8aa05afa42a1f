import type * as pulumi from "@pulumi/pulumi";
import { createClient, type MonitoringClient } from "../api";
import { clientOptionsOf } from "../settings";
import type { ProgramConfig } from "./config";

/** One API client for the program's reads, built inside the key's `apply` (so it is secret). */
export function programClient(config: ProgramConfig): pulumi.Output<MonitoringClient> {
  return config.apiKey.apply((apiKey) => createClient(clientOptionsOf(config.settings, apiKey)));
}
