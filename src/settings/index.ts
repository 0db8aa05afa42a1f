export { apiErrorAdvice, apiErrorMessage, runErrorMessage } from "./api-error-advice";
export {
  type ConnectionSetting,
  type Enforce,
  type LimitSetting,
  type OnPageChange,
  type OutputsMode,
  parseDeadline,
  parseWholeNumber,
  type ReadBack,
  SETTINGS,
  type WholeNumberBounds,
} from "./catalog";
export {
  cliSettingName,
  commandLine,
  type SettingsContext,
  settingEnv,
  settingFlag,
} from "./names";
export { definitionsDirectory, projectRoot } from "./project-root";
export {
  RUN_BY_VARIABLE,
  RUN_DEADLINE_VARIABLE,
  runCommandsContext,
  runDeadlineOf,
  runSettingsContext,
  SETTINGS_FROM_VARIABLE,
} from "./run-context";
export { settingName } from "./setting-name";
export {
  API_KEY_SETTING,
  CONFIG_NAMESPACE,
  checkSettingKeys,
  clientOptionsOf,
  configKey,
  readStackSetting,
  readStackSettings,
  STACK_SETTING_NAMES,
  StackConfigError,
  type StackSettingName,
  StackSettings,
} from "./stack-config";
