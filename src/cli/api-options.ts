import type { Command } from "commander";
import { LIMITS } from "../incident/limits";
import { settingEnv, settingFlag } from "../settings/names";
import { UserError } from "../user-error";

/** Raw values of the shared flags as commander parses them. */
export interface ApiFlags {
  apiUrl?: string;
  apiKey?: string;
  accountId?: string;
  rateLimit?: string;
  concurrency?: string;
}

/** Thrown when the connection settings are missing or malformed; the message says how to fix it. */
export class ApiOptionsError extends UserError {
  override name = "ApiOptionsError";
}

/**
 * Adds the connection flags to a command: `--api-url`, `--api-key`, `--account-id`,
 * `--rate-limit` and `--concurrency`. Each falls back to its environment variable
 * (`MONITORING_API_URL`, …). The key flag is accepted for scripts, but the environment is
 * preferred: a flag shows up in `ps`.
 */
export function addApiOptions(command: Command): Command {
  const limit = (setting: keyof typeof LIMITS) => {
    const { min, max, unit } = LIMITS[setting];
    return `${unit}, ${min} to ${max} (env ${settingEnv(setting)})`;
  };
  // The client's defaults (DEFAULTS in src/api/client/options.ts; a test keeps them equal),
  // written out because that module loads zod, which building the program does not need.
  command.addHelpText(
    "after",
    `
Unless ${settingFlag("rateLimit")} and ${settingFlag("concurrency")} say otherwise, the client sends at most
600 requests per minute and has at most 8 calls in flight. It retries 429, 502, 503,
504 and network errors.`,
  );
  return command
    .option(
      `${settingFlag("baseUrl")} <url>`,
      `monitoring API base URL (env ${settingEnv("baseUrl")})`,
    )
    .option(
      `${settingFlag("apiKey")} <key>`,
      `API key; prefer env ${settingEnv("apiKey")} (never printed)`,
    )
    .option(
      `${settingFlag("accountId")} <id>`,
      `account identifier (env ${settingEnv("accountId")})`,
    )
    .option(`${settingFlag("rateLimit")} <n>`, limit("rateLimit"))
    .option(`${settingFlag("concurrency")} <n>`, limit("concurrency"));
}
