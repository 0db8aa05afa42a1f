import { z } from "zod";
import type { ClientOptions } from "../api";
import { closestMatch } from "../suggest";
import { UserError } from "../user-error";
import { parseWholeNumber, SETTINGS, type WholeNumberBounds } from "./catalog";
import { runDeadlineOf } from "./run-context";

/** The namespace of incident-sync's stack config keys: `incident-sync:<name>`. */
export const CONFIG_NAMESPACE = "incident-sync";

/** The secret stack config key of the API key. */
export const API_KEY_SETTING = "apiKey";

/** `incident-sync:<name>`, as `pulumi config set` spells it. */
export function configKey(name: string): string {
  return `${CONFIG_NAMESPACE}:${name}`;
}

/** A whole-number setting, parsed from Pulumi's string by the one parser of the catalog. */
const wholeNumber = (bounds: WholeNumberBounds) =>
  z.string().transform((text, context) => {
    const parsed = parseWholeNumber(text, bounds);
    if (parsed.ok) return parsed.value;
    context.addIssue({ code: "custom", message: parsed.problem });
    return z.NEVER;
  });

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be ${values.slice(0, -1).join(", ")} or ${values.at(-1)}` });

/**
 * The stack config, every key but the secret `apiKey`, as Pulumi's strings: the program, the
 * provider and the engine all read it through this schema, with the catalog's bounds.
 */
export const StackSettings = z.object({
  /** Base URL of the monitoring API. */
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  /** Account, sent as `x-service-account`. */
  accountId: z.string({ error: "must be set" }).trim().min(1, "must not be empty"),
  /** Definitions directory, relative to the project directory (where Pulumi.yaml is). */
  definitionsDir: z.string().min(1).default(SETTINGS.definitionsDir.default),
  /** Retries per call on 502, 503, 504, timeouts and network failures; see `SETTINGS.retries`. */
  retries: wholeNumber(SETTINGS.retries).default(SETTINGS.retries.default),
  /** Requests per minute for all a machine sends with the key (one shared budget); unset: the client's default. */
  rateLimit: wholeNumber(SETTINGS.rateLimit).optional(),
  /** Calls in flight, per client; unset: the client's default. */
  concurrency: wholeNumber(SETTINGS.concurrency).optional(),
  /**
   * `observed`: apply what git, the live status or a post since the last apply changed;
   * `always`: apply every incident on every `up`, at one more request each.
   */
  enforce: oneOf(SETTINGS.enforce.values).default(SETTINGS.enforce.default),
  /**
   * A name, severity or services changed on the status page since the last apply: `revert`
   * puts git's back (and the report says what it put back); `refuse` fails that incident
   * before any write, leaving the page as it is until git takes the change.
   */
  onPageChange: oneOf(SETTINGS.onPageChange.values).default(SETTINGS.onPageChange.default),
  /**
   * Which incidents the program reads back every run: `all` (default), or `open`: only those
   * declared open, for a smaller rate-limit budget; a resolved incident reopened on the status
   * page then goes unseen until the next `all` run or `incident-sync drift`.
   */
  readBack: oneOf(SETTINGS.readBack.values).default(SETTINGS.readBack.default),
  /** `true`: an evidence heartbeat or check that does not exist fails the run instead of warning. */
  strictEvidence: oneOf(SETTINGS.strictEvidence.values)
    .default(SETTINGS.strictEvidence.default)
    .transform((value) => value === "true"),
  /**
   * `summary`: counts, drift and evidence, a few KB whatever the number of incidents (Pulumi
   * prints every output after every `up`); `full`: also every incident and its updates.
   */
  outputs: oneOf(SETTINGS.outputs.values).default(SETTINGS.outputs.default),
});
export type StackSettings = z.output<typeof StackSettings>;
export type StackSettingName = keyof z.input<typeof StackSettings>;

/** Every setting name, for reading them one by one from a config store. */
export const STACK_SETTING_NAMES = Object.keys(StackSettings.shape) as StackSettingName[];

/** The stack config is missing a key or holds a value outside its range; says which and how to fix it. */
export class StackConfigError extends UserError {
  override name = "StackConfigError";
}

/**
 * Reads and validates the stack config through `get(name)` (the program passes Pulumi's
 * `Config.get`, the provider the config of its configure request), reporting every problem
 * at once with the `pulumi config set` command that fixes it.
 */
export function readStackSettings(
  get: (name: StackSettingName) => string | undefined,
): StackSettings {
  return parseSettings(StackSettings, STACK_SETTING_NAMES, get);
}

/**
 * One setting of the stack config, checked by the same schema, its default when unset: the
 * engine reads the definitions directory so, from the config Pulumi resolves for the stack
 * (`Pulumi.yaml`'s defaults, the stack file, the run's own values).
 */
export function readStackSetting<N extends StackSettingName>(
  name: N,
  get: (name: StackSettingName) => string | undefined,
): StackSettings[N] {
  const one = z.object({ [name]: StackSettings.shape[name] } as Record<string, z.ZodType>);
  return parseSettings(one, [name], get)[name] as StackSettings[N];
}

function parseSettings<T>(
  schema: z.ZodType<T>,
  names: readonly StackSettingName[],
  get: (name: StackSettingName) => string | undefined,
): T {
  const raw = Object.fromEntries(
    names.flatMap((name) => {
      const value = get(name);
      return value === undefined || value === "" ? [] : [[name, value]];
    }),
  );
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "");
    const value = raw[name];
    return value === undefined
      ? `  ${configKey(name)} is not set: pulumi config set ${configKey(name)} <value>`
      : `  ${configKey(name)} is ${JSON.stringify(value)}: it ${issue.message}`;
  });
  throw new StackConfigError(
    `The stack config of incident-sync is not valid:\n${lines.join("\n")}`,
  );
}

/**
 * Refuses config keys in the `incident-sync:` namespace that name no setting, each with the
 * closest valid name, as an unknown key in a definition is: a typo'd setting would otherwise
 * be ignored and its default used without a word. `keys` are full keys (`incident-sync:x`).
 */
export function checkSettingKeys(keys: Iterable<string>): void {
  const known = [...STACK_SETTING_NAMES, API_KEY_SETTING];
  const prefix = `${CONFIG_NAMESPACE}:`;
  const lines: string[] = [];
  for (const key of [...keys].sort()) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    if ((known as readonly string[]).includes(name)) continue;
    const closest = closestMatch(name, known);
    lines.push(
      `  ${key} is not a setting of incident-sync${closest === undefined ? "" : `: did you mean ${configKey(closest)}?`} (pulumi config rm ${key})`,
    );
  }
  if (lines.length === 0) return;
  throw new StackConfigError(
    `The stack config of incident-sync has ${lines.length === 1 ? "a key" : "keys"} it does not know:\n${lines.join("\n")}\nThe settings are ${known.map(configKey).join(", ")} (see Pulumi.yaml).`,
  );
}

/**
 * Client options from the stack settings; the program's reads and the provider's writes both
 * build their client with it, so the same config means the same limits on both sides, and the
 * same deadline when `incident-sync up` set one for the run (`runDeadlineOf`).
 */
export function clientOptionsOf(
  settings: StackSettings,
  apiKey: string,
  env: NodeJS.ProcessEnv = process.env,
): ClientOptions {
  const deadline = runDeadlineOf(env);
  return {
    baseUrl: settings.baseUrl,
    apiKey,
    accountId: settings.accountId,
    ...(deadline === undefined ? {} : { deadline }),
    retry: { limit: settings.retries },
    ...(settings.rateLimit === undefined
      ? {}
      : { rateLimit: { limit: settings.rateLimit, intervalMs: 60_000 } }),
    ...(settings.concurrency === undefined ? {} : { concurrency: settings.concurrency }),
  };
}
