import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { compileCacheDir } from "../compile-cache";
import { SETTINGS } from "../settings/catalog";
import {
  RUN_BY_VARIABLE,
  RUN_DEADLINE_VARIABLE,
  SANDBOX_OF_VARIABLE,
  SETTINGS_FROM_VARIABLE,
} from "../settings/run-context";
import type { EngineLocation } from "./engine-location";

export interface EngineEnvironmentOptions {
  engine: EngineLocation;
  /** The project directory (where Pulumi.yaml is). */
  projectDir: string;
  /** `file://…`, `s3://…`, or a Pulumi Cloud URL. */
  backendUrl: string;
  /** Passphrase of a passphrase secrets provider; unset for Pulumi Cloud's. */
  passphrase?: string | undefined;
  /** An isolated PULUMI_HOME; the user's own when unset. */
  pulumiHome?: string | undefined;
  /** Write the state once at the end instead of after every step (see BENCHMARKS.md). */
  skipCheckpoints: boolean;
  /** When the program's and the provider's calls must stop, in epoch milliseconds. */
  runDeadline?: number | undefined;
  /** The connection came from the command line's flags and variables, not the stack config. */
  settingsFromCommandLine?: boolean | undefined;
  /** A sandbox's run: the team's stack it stands for, as named. */
  sandboxOf?: string | undefined;
  /** The environment to start from. @default process.env */
  base?: NodeJS.ProcessEnv;
}

/**
 * Never inherited: a key in the environment is one leak away from a log. The passphrase is
 * handed over explicitly; `PULUMI_CONFIG_PASSPHRASE_FILE`, a path, passes through.
 */
const WITHHELD = [
  SETTINGS.apiKey.env,
  "PULUMI_CONFIG_PASSPHRASE",
  RUN_DEADLINE_VARIABLE,
  SETTINGS_FROM_VARIABLE,
  SANDBOX_OF_VARIABLE,
];

/**
 * Environment for every `pulumi` command: the backend, no update checks or plugin downloads,
 * and a PATH on which the engine finds Node 24 (this process's) before any other node, the
 * Node.js language host, and the `pulumi-resource-pulumi-nodejs` dynamic provider script.
 */
export function engineEnvironment(options: EngineEnvironmentOptions): Record<string, string> {
  const { engine, projectDir } = options;
  const base = options.base ?? process.env;
  const inherited = Object.fromEntries(
    Object.entries(base).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !WITHHELD.includes(entry[0]),
    ),
  );
  const path = [
    dirname(process.execPath),
    engine.binDir,
    dirname(engine.languageHost),
    engine.pluginDir,
    base.PATH ?? "",
  ].join(delimiter);
  // State written by incident-sync 0.1 stores a provider that looks for its operations here
  // first; 0.2 and later need nothing of the kind (docs/provider-and-program.md, "How the provider finds its code").
  const legacyOperations = join(projectDir, "dist", "providers", "legacy-operations.js");
  return {
    ...inherited,
    PATH: path,
    PULUMI_BACKEND_URL: options.backendUrl,
    ...(options.passphrase === undefined ? {} : { PULUMI_CONFIG_PASSPHRASE: options.passphrase }),
    ...(options.pulumiHome === undefined ? {} : { PULUMI_HOME: options.pulumiHome }),
    ...(options.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
    ...(existsSync(legacyOperations) ? { INCIDENT_SYNC_OPERATIONS: legacyOperations } : {}),
    ...(options.runDeadline === undefined
      ? {}
      : { [RUN_DEADLINE_VARIABLE]: new Date(options.runDeadline).toISOString() }),
    ...(options.settingsFromCommandLine ? { [SETTINGS_FROM_VARIABLE]: "command-line" } : {}),
    [RUN_BY_VARIABLE]: "incident-sync",
    ...(options.sandboxOf ? { [SANDBOX_OF_VARIABLE]: options.sandboxOf } : {}),
    ...compileCache(base),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // Enables `--event-log`, the structured record of a run (the Automation API sets it too).
    PULUMI_DEBUG_COMMANDS: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}

/**
 * The engine's Node processes share the CLI's compile cache (`src/cli/main.ts`), so each
 * loads @pulumi/pulumi without compiling it again; never under $TMPDIR, none with
 * NODE_DISABLE_COMPILE_CACHE.
 */
function compileCache(base: NodeJS.ProcessEnv): Record<string, string> {
  const dir = compileCacheDir(base);
  return dir === undefined ? {} : { NODE_COMPILE_CACHE: dir };
}
