import type { ConnectionSetting } from "./catalog";
import { cliSettingName, type SettingsContext } from "./names";
import { configKey } from "./stack-config";

/**
 * How a reader in `context` sets `setting`: `--api-url or MONITORING_API_URL` on the command
 * line (`MONITORING_API_KEY or --api-key` for the key), the stack config key
 * `incident-sync:baseUrl` under Pulumi (spelled by `configKey`).
 *
 * @example
 * `Missing the API URL (${settingName("baseUrl")}).`
 */
export function settingName(setting: ConnectionSetting, context: SettingsContext = "cli"): string {
  return context === "pulumi" ? configKey(setting) : cliSettingName(setting);
}
