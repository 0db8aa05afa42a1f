import { isAbsolute, resolve } from "node:path";
import * as pulumi from "@pulumi/pulumi";

/** The stack config of incident-sync (namespace `incident-sync`). */
export interface ProgramConfig {
  baseUrl: string;
  accountId: string;
  /** Secret: only ever used inside `apply`. */
  apiKey: pulumi.Output<string>;
  /** Absolute path of the definitions directory. */
  definitionsDir: string;
  retries: number | undefined;
  rateLimit: number | undefined;
  concurrency: number | undefined;
}

/**
 * Reads the stack config: `baseUrl`, `accountId`, the secret `apiKey`, `definitionsDir`
 * (default `incidents`, relative to the project directory) and the client tuning `retries`,
 * `rateLimit` (requests per minute) and `concurrency`.
 */
export function readProgramConfig(projectDir: string = process.cwd()): ProgramConfig {
  const config = new pulumi.Config("incident-sync");
  const dir = config.get("definitionsDir") ?? "incidents";
  return {
    baseUrl: config.require("baseUrl"),
    accountId: config.require("accountId"),
    apiKey: config.requireSecret("apiKey"),
    definitionsDir: isAbsolute(dir) ? dir : resolve(projectDir, dir),
    retries: config.getNumber("retries", { min: 0, max: 20 }),
    rateLimit: config.getNumber("rateLimit", { min: 1 }),
    concurrency: config.getNumber("concurrency", { min: 1 }),
  };
}
