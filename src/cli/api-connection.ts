import type { ClientOptions } from "../api";
import { type LimitSetting, parseDeadline, parseWholeNumber, SETTINGS } from "../settings/catalog";
import { cliSettingName, settingEnv, settingFlag } from "../settings/names";
import { type ApiFlags, ApiOptionsError } from "./api-options";
import { type StackAccountSource, stackAccount } from "./stack-account";

/** What a command needs to build its client, with the limits it was given. */
export interface ApiConnection extends ClientOptions {
  /** Requests per minute. */
  readonly requestsPerMinute: number;
  /** Calls in flight. */
  readonly concurrency: number;
}

/**
 * Resolves flags over environment variables into a connection, or says what is missing or
 * wrong. The account, when neither gives it, is the one the project's stack config names
 * (`stackAccount`), as the stack's own runs send it.
 */
export function resolveApiConnection(
  flags: ApiFlags,
  env: NodeJS.ProcessEnv = process.env,
  project?: StackAccountSource,
): ApiConnection {
  const baseUrl = flags.apiUrl ?? env[settingEnv("baseUrl")];
  const apiKey = flags.apiKey ?? env[settingEnv("apiKey")];
  const accountId =
    flags.accountId ||
    env[settingEnv("accountId")] ||
    (project === undefined ? undefined : stackAccount(project));
  const missing: string[] = [];
  if (!baseUrl) missing.push(`the API URL (${cliSettingName("baseUrl")})`);
  if (!apiKey) missing.push(`the API key (${cliSettingName("apiKey")})`);
  if (!baseUrl || !apiKey) {
    throw new ApiOptionsError(`Missing ${missing.join(" and ")}.`);
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ApiOptionsError(
      `The API URL ${JSON.stringify(baseUrl)} is not a valid URL; use e.g. http://127.0.0.1:8787.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiOptionsError(`The API URL must use http or https, not ${url.protocol}`);
  }
  const requestsPerMinute = limitSetting("rateLimit", flags.rateLimit, env);
  const concurrency = limitSetting("concurrency", flags.concurrency, env);
  return {
    baseUrl,
    apiKey,
    deadline: commandDeadline(flags, env).at,
    ...(accountId ? { accountId } : {}),
    rateLimit: { limit: requestsPerMinute, intervalMs: 60_000 },
    concurrency,
    requestsPerMinute,
  };
}

/**
 * The client limits given for this run (`--rate-limit`, `--concurrency` or their variables),
 * checked, and only those: `up` passes them to the program as stack config for the run, so
 * the stack's own config applies where none was given.
 */
export function givenLimits(
  flags: ApiFlags,
  env: NodeJS.ProcessEnv,
): Partial<Record<LimitSetting, number>> {
  const given: Partial<Record<LimitSetting, number>> = {};
  for (const setting of ["rateLimit", "concurrency"] as const) {
    const value = givenLimit(setting, flags[setting], env);
    if (value !== undefined) given[setting] = value;
  }
  return given;
}

/** A client limit from its flag, else its environment variable, else the client's default. */
function limitSetting(
  setting: LimitSetting,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): number {
  return givenLimit(setting, flag, env) ?? SETTINGS[setting].default;
}

/** A client limit from its flag, else its environment variable; undefined when neither is set. */
function givenLimit(
  setting: LimitSetting,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): number | undefined {
  const [source, text] =
    flag !== undefined
      ? [settingFlag(setting), flag]
      : [settingEnv(setting), env[settingEnv(setting)]];
  if (text === undefined || text === "") return undefined;
  const parsed = parseWholeNumber(text, SETTINGS[setting]);
  if (!parsed.ok) {
    throw new ApiOptionsError(`${source} ${parsed.problem}, not ${JSON.stringify(text)}.`);
  }
  return parsed.value;
}

/** When the command must have ended, and how the person set it. */
export interface CommandDeadline {
  /** Epoch milliseconds. */
  readonly at: number;
  /** `--deadline 20m`, `INCIDENT_SYNC_DEADLINE=20m` or `the default of 30m`, for messages. */
  readonly shown: string;
}

/**
 * When the command must have ended: `--deadline`, else `INCIDENT_SYNC_DEADLINE`, else the
 * default (`SETTINGS.deadline`), counted from `start`.
 */
export function commandDeadline(
  flags: Pick<ApiFlags, "deadline">,
  env: NodeJS.ProcessEnv,
  start: number = Date.now(),
): CommandDeadline {
  const { flag, env: variable, default: fallback } = SETTINGS.deadline;
  const [source, text, shown] =
    flags.deadline !== undefined
      ? [flag, flags.deadline, `${flag} ${flags.deadline}`]
      : env[variable]
        ? [variable, env[variable], `${variable}=${env[variable]}`]
        : [flag, fallback, `the default of ${fallback}`];
  const parsed = parseDeadline(text);
  if (!parsed.ok) {
    throw new ApiOptionsError(`${source} ${parsed.problem}, not ${JSON.stringify(text)}.`);
  }
  return { at: start + parsed.ms, shown };
}
