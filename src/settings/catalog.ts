import { CLIENT_DEFAULTS } from "../api/client/defaults";

/**
 * Every setting in one place: its flag, variable and stack config key, bounds, values and
 * default. It reads only the client's own numbers (`CLIENT_DEFAULTS`, which import nothing),
 * so every layer above the client (and `--help`, without zod) reads it.
 */

/** Bounds of a whole-number setting, and what it counts. */
export interface WholeNumberBounds {
  readonly min: number;
  readonly max: number;
  /** What the number counts, as a message names it: `requests per minute`. */
  readonly unit: string;
}

export const SETTINGS = {
  /** Base URL of the monitoring API. */
  baseUrl: { flag: "--api-url", env: "MONITORING_API_URL" },
  /** Account, sent as `x-service-account`. */
  accountId: { flag: "--account-id", env: "MONITORING_ACCOUNT_ID" },
  /** The API key: a secret stack config value, else the variable (a flag shows in `ps`). */
  apiKey: { flag: "--api-key", env: "MONITORING_API_KEY" },
  /** Requests per minute for all a machine sends with one key; 600 is what the service allows. */
  rateLimit: {
    flag: "--rate-limit",
    env: "MONITORING_RATE_LIMIT",
    min: 1,
    max: 60_000,
    unit: "requests per minute",
    default: CLIENT_DEFAULTS.rateLimit,
  },
  /** Calls in flight, per client. */
  concurrency: {
    flag: "--concurrency",
    env: "MONITORING_CONCURRENCY",
    min: 1,
    max: 64,
    unit: "calls in flight",
    default: CLIENT_DEFAULTS.concurrency,
  },
  /**
   * Retries per call on 502, 503, 504, timeouts and network failures (429s are waited out
   * apart). A client made with `createClient` and the CLI retry 3 times; a stack's program and
   * provider 8, as a pipeline run should ride out a flaky API (the retry budget bounds it).
   */
  retries: {
    min: 0,
    max: CLIENT_DEFAULTS.retryLimitMax,
    unit: "retries per call",
    default: 8,
    clientDefault: CLIENT_DEFAULTS.retryLimit,
  },
  /**
   * How long a command that reads or writes the API may run: every call ends by then, and
   * `up`, `preview` and `refresh` stop their engine gracefully before it, release the lock
   * and say what was done. A duration (`90s`, `20m`, `1h`).
   */
  deadline: {
    flag: "--deadline",
    env: "INCIDENT_SYNC_DEADLINE",
    minMs: 1_000,
    maxMs: 86_400_000,
    default: "30m",
  },
  /** Definitions directory, relative to the project directory (where Pulumi.yaml is). */
  definitionsDir: { default: "incidents" },
  /** Which incidents are applied on every `up`: see `StackSettings`. */
  enforce: { values: ["observed", "always"], default: "observed" },
  /** What `up` does with a field changed on the status page since the last apply: see `StackSettings`. */
  onPageChange: { values: ["revert", "refuse"], default: "revert" },
  /** Which incidents every run reads back: see `StackSettings`. */
  readBack: { values: ["all", "open"], default: "all" },
  /** Whether missing evidence fails the run instead of warning. */
  strictEvidence: { values: ["true", "false"], default: "false" },
  /** Which stack outputs the program exports, and Pulumi prints after every `up`: see `StackSettings`. */
  outputs: { values: ["summary", "full"], default: "summary" },
} as const;

/** The settings of a connection to the monitoring API, which the CLI takes as flags too. */
export type ConnectionSetting = "baseUrl" | "accountId" | "apiKey" | "rateLimit" | "concurrency";

/** The client limits a person may set on the command line or in the stack config. */
export type LimitSetting = "rateLimit" | "concurrency";

export type Enforce = (typeof SETTINGS.enforce.values)[number];
export type OnPageChange = (typeof SETTINGS.onPageChange.values)[number];
export type ReadBack = (typeof SETTINGS.readBack.values)[number];
export type OutputsMode = (typeof SETTINGS.outputs.values)[number];

/**
 * The one parser of a whole-number setting, from the text of a flag, a variable or the stack
 * config: the number, or what is wrong with the text, as
 * `must be a whole number of requests per minute from 1 to 60000`.
 */
export function parseWholeNumber(
  text: string,
  bounds: WholeNumberBounds,
): { ok: true; value: number } | { ok: false; problem: string } {
  const value = Number(text.trim());
  if (/^\s*\d+\s*$/.test(text) && value >= bounds.min && value <= bounds.max) {
    return { ok: true, value };
  }
  return {
    ok: false,
    problem: `must be a whole number of ${bounds.unit} from ${bounds.min} to ${bounds.max}`,
  };
}

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * The one parser of the deadline's duration, from a flag or a variable: `90s`, `20m`, `1h`,
 * in milliseconds, or what is wrong with the text.
 */
export function parseDeadline(
  text: string,
): { ok: true; ms: number } | { ok: false; problem: string } {
  const match = /^\s*(\d+)\s*([smh])\s*$/i.exec(text);
  const ms = match ? Number(match[1]) * (DURATION_UNITS[match[2]?.toLowerCase() ?? ""] ?? 0) : 0;
  const { minMs, maxMs } = SETTINGS.deadline;
  if (match && ms >= minMs && ms <= maxMs) return { ok: true, ms };
  return {
    ok: false,
    problem: `must be a duration in seconds, minutes or hours (90s, 20m, 1h) from ${minMs / 1_000}s to ${maxMs / 3_600_000}h`,
  };
}

/**
 * An environment for a child process that sends no request to the API (git, the engine's
 * helpers): the key's variable left out, so the key is only where a request is sent.
 */
export function withoutApiKey(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { [SETTINGS.apiKey.env]: _key, ...rest } = env;
  return rest;
}
