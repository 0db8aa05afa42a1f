import { type ApiError, DeadlineError, RateLimitError } from "../api";
import { httpErrorMessage } from "../api/errors/http-errors";
import { SETTINGS } from "./catalog";
import type { SettingsContext } from "./names";
import { runSettingsContext } from "./run-context";
import { settingName } from "./setting-name";

/**
 * What to do about an API error, naming the setting as the context sets it (flag and variable,
 * or `incident-sync:apiKey`); undefined when the error's own message says it.
 */
export function apiErrorAdvice(
  error: ApiError,
  context: SettingsContext = "cli",
): string | undefined {
  if (error instanceof DeadlineError) {
    const { flag, env, default: fallback } = SETTINGS.deadline;
    return context === "pulumi"
      ? `incident-sync stopped the run at its deadline (${flag}); the next run applies what is left.`
      : `The command stops at its deadline: give it longer with ${flag} or ${env} (default ${fallback}), or check the service.`;
  }
  const noAccount = `No account was sent (x-service-account), and a personal API key needs one: set ${settingName("accountId", context)}.`;
  switch (error.status) {
    case 401: {
      const key =
        context === "pulumi"
          ? `The API key was refused: check ${settingName("apiKey", context)} (pulumi config set --secret ${settingName("apiKey", context)}).`
          : `The API key was refused: check ${settingName("apiKey", context)}.`;
      return error.accountSent === false ? `${key} ${noAccount}` : key;
    }
    case 403:
      return error.accountSent === false
        ? noAccount
        : `The API key may not act for this account: check ${settingName("accountId", context)} and ${settingName("apiKey", context)}.`;
    case 429: {
      const tries =
        error instanceof RateLimitError && error.gaveUp
          ? ` (${error.gaveUp})`
          : error.attempts > 1
            ? ` (gave up after ${error.attempts} attempts)`
            : "";
      return `The service is rate limiting this key${tries}; lower ${settingName("rateLimit", context)} or try again later.`;
    }
    default:
      return undefined;
  }
}

/**
 * The error's message with the advice of `context` in place of the client's generic one,
 * e.g. `GET /v1/… failed: 401 Unauthorized: <server message>. The API key was refused: check
 * MONITORING_API_KEY or --api-key.` Errors without context advice keep their message.
 */
export function apiErrorMessage(error: ApiError, context: SettingsContext = "cli"): string {
  const advice = apiErrorAdvice(error, context);
  if (advice === undefined) return error.message;
  if (error.status === undefined) return `${error.message} ${advice}`;
  return httpErrorMessage({ ...error, status: error.status }, advice);
}

/**
 * An API error as a run of the engine says it, the program's and the provider's alike: the
 * advice names the settings as that run was given them (stack config, or the command line's).
 */
export function runErrorMessage(error: ApiError): string {
  return apiErrorMessage(error, runSettingsContext());
}
