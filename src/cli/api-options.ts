import type { Command } from "commander";

/** Where and as whom a command talks to the monitoring API. */
export interface ApiConnection {
  baseUrl: string;
  apiKey: string;
  accountId?: string;
}

/** Raw values of the shared flags as commander parses them. */
export interface ApiFlags {
  apiUrl?: string;
  apiKey?: string;
  accountId?: string;
}

/** Thrown when the connection settings are missing or malformed; the message says how to fix it. */
export class ApiOptionsError extends Error {
  override name = "ApiOptionsError";
}

/**
 * Adds `--api-url`, `--api-key` and `--account-id` to a command. Each falls back to
 * `MONITORING_API_URL`, `MONITORING_API_KEY` and `MONITORING_ACCOUNT_ID`. The key flag
 * is accepted for scripts, but the environment is preferred: a flag shows up in `ps`.
 */
export function addApiOptions(command: Command): Command {
  return command
    .option("--api-url <url>", "monitoring API base URL (env MONITORING_API_URL)")
    .option("--api-key <key>", "API key; prefer env MONITORING_API_KEY (never printed)")
    .option("--account-id <id>", "account identifier (env MONITORING_ACCOUNT_ID)");
}

/** Resolves flags over environment variables into a connection, or says what is missing. */
export function resolveApiConnection(
  flags: ApiFlags,
  env: NodeJS.ProcessEnv = process.env,
): ApiConnection {
  const baseUrl = flags.apiUrl ?? env.MONITORING_API_URL;
  const apiKey = flags.apiKey ?? env.MONITORING_API_KEY;
  const accountId = flags.accountId ?? env.MONITORING_ACCOUNT_ID;
  const missing: string[] = [];
  if (!baseUrl) missing.push("the API URL (--api-url or MONITORING_API_URL)");
  if (!apiKey) missing.push("the API key (MONITORING_API_KEY or --api-key)");
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
  return accountId ? { baseUrl, apiKey, accountId } : { baseUrl, apiKey };
}

/**
 * Removes every occurrence of the key from text bound for a person (error messages from
 * lower layers may quote a request); the key must never reach a terminal or a log.
 */
export function redactKey(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join("[redacted]");
}
