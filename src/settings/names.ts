import { type ConnectionSetting, SETTINGS } from "./catalog";

/**
 * Where a person sets the connection: flags and environment variables on the command
 * line, stack config under Pulumi. Messages name the setting the way the reader sets it.
 */
export type SettingsContext = "cli" | "pulumi";

/**
 * A command a message tells its reader to run, in the reader's CLI: `incident-sync cancel
 * --stack prod` for a user of incident-sync, `pulumi cancel --yes` for one of the plain CLI.
 */
export function commandLine(command: "up" | "cancel", context: SettingsContext, stack: string) {
  if (context === "cli") return `incident-sync ${command} --stack ${stack}`;
  return command === "cancel" ? "pulumi cancel --yes" : "pulumi up";
}

/** The command-line flag of a setting, e.g. `--api-url`. */
export function settingFlag(setting: ConnectionSetting): string {
  return SETTINGS[setting].flag;
}

/** The environment variable of a setting, e.g. `MONITORING_API_URL`. */
export function settingEnv(setting: ConnectionSetting): string {
  return SETTINGS[setting].env;
}

/**
 * How a person sets `setting` on the command line: `--api-url or MONITORING_API_URL`, and
 * `MONITORING_API_KEY or --api-key` for the key (a flag shows in `ps`). This module imports
 * only the catalog, so the CLI can name its flags before it loads anything else.
 */
export function cliSettingName(setting: ConnectionSetting): string {
  const { flag, env } = SETTINGS[setting];
  return setting === "apiKey" ? `${env} or ${flag}` : `${flag} or ${env}`;
}
