import type { Command } from "commander";
import { type LimitSetting, SETTINGS } from "../settings/catalog";
import { settingEnv, settingFlag } from "../settings/names";
import { UserError } from "../user-error";

/** Raw values of the shared flags as commander parses them. */
export interface ApiFlags {
  apiUrl?: string;
  apiKey?: string;
  accountId?: string;
  rateLimit?: string;
  concurrency?: string;
  /** How long the command may run (`--deadline 20m`). */
  deadline?: string;
}

/** Thrown when the connection settings are missing or malformed; the message says how to fix it. */
export class ApiOptionsError extends UserError {
  override name = "ApiOptionsError";
}

/**
 * The connection flags (`--api-url`, `--api-key`, `--account-id`, `--rate-limit`,
 * `--concurrency`), each falling back to its variable; the key is better there than in `ps`.
 */
export function addApiOptions(
  command: Command,
  /**
   * Who makes the calls: the CLI's own client, or the stack's program and provider under
   * Pulumi (`up`, `preview`, `refresh`), which retry more (`incident-sync:retries`).
   * @default "cli"
   */
  caller: "cli" | "stack" = "cli",
): Command {
  const limit = (setting: LimitSetting) => {
    const { min, max, unit } = SETTINGS[setting];
    return `${unit}, ${min} to ${max} (env ${settingEnv(setting)})`;
  };
  const { rateLimit, concurrency, retries, deadline } = SETTINGS;
  command.addHelpText(
    "after",
    `
Unless ${settingFlag("rateLimit")} and ${settingFlag("concurrency")} say otherwise, the client sends at most
${rateLimit.default} ${rateLimit.unit} and has at most ${concurrency.default} ${concurrency.unit}. It retries 502, 503, 504,
timeouts and network errors (${caller === "stack" ? `${retries.default} ${retries.unit}, the stack config's incident-sync:retries` : `${retries.clientDefault} ${retries.unit}`}) and waits
out 429s; each attempt times out, its body included. The command stops at its deadline
(${deadline.flag}, default ${deadline.default}) with exit code 124, whatever the server does.`,
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
    .option(`${settingFlag("concurrency")} <n>`, limit("concurrency"))
    .option(
      `${deadline.flag} <duration>`,
      `stop after this long: 90s, 20m, 1h (default ${deadline.default}; env ${deadline.env})`,
    );
}
