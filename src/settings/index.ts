export { apiErrorAdvice, apiErrorMessage } from "./api-error-advice";
export {
  type ConnectionSetting,
  cliSettingName,
  type SettingsContext,
  settingEnv,
  settingFlag,
} from "./names";
export { settingName } from "./setting-name";
