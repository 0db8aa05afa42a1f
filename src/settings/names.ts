/**
 * Where a person sets the connection: flags and environment variables on the command
 * line, stack config under Pulumi. Messages name the setting the way the reader sets it.
 */
export type SettingsContext = "cli" | "pulumi";

/** The settings every client of the monitoring API is built from. */
export type ConnectionSetting = "baseUrl" | "accountId" | "apiKey" | "rateLimit" | "concurrency";

/** Flags and environment variables of the CLI; the key's variable comes first (a flag shows in `ps`). */
const CLI_NAMES: Readonly<Record<ConnectionSetting, { flag: string; env: string }>> = {
  baseUrl: { flag: "--api-url", env: "MONITORING_API_URL" },
  accountId: { flag: "--account-id", env: "MONITORING_ACCOUNT_ID" },
  apiKey: { flag: "--api-key", env: "MONITORING_API_KEY" },
  rateLimit: { flag: "--rate-limit", env: "MONITORING_RATE_LIMIT" },
  concurrency: { flag: "--concurrency", env: "MONITORING_CONCURRENCY" },
};

/** The command-line flag of a setting, e.g. `--api-url`. */
export function settingFlag(setting: ConnectionSetting): string {
  return CLI_NAMES[setting].flag;
}

/** The environment variable of a setting, e.g. `MONITORING_API_URL`. */
export function settingEnv(setting: ConnectionSetting): string {
  return CLI_NAMES[setting].env;
}

/**
 * How a person sets `setting` on the command line: `--api-url or MONITORING_API_URL`, and
 * `MONITORING_API_KEY or --api-key` for the key. This module imports nothing, so the CLI
 * can name its flags before it loads anything else.
 */
export function cliSettingName(setting: ConnectionSetting): string {
  const { flag, env } = CLI_NAMES[setting];
  return setting === "apiKey" ? `${env} or ${flag}` : `${flag} or ${env}`;
}
