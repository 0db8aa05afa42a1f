import { delimiter, dirname, join } from "node:path";
import type { EngineLocation } from "./engine-location";

export interface EngineEnvironmentOptions {
  engine: EngineLocation;
  repoRoot: string;
  /** Directory the harness owns: the `file://` backend and PULUMI_HOME live under it. */
  stateDir: string;
  /** Passphrase of the stack's secrets provider. */
  passphrase: string;
}

/**
 * Environment for every `pulumi` command the harness runs: an isolated PULUMI_HOME and local
 * backend, no update checks or plugin downloads (there is no network), and a PATH on which the
 * engine finds the CLI's own plugins, the `pulumi-resource-pulumi-nodejs` dynamic provider
 * script shipped in `@pulumi/pulumi`, and Node 24 (this process's Node) before any other node.
 */
export function engineEnvironment(options: EngineEnvironmentOptions): Record<string, string> {
  const { engine, repoRoot, stateDir, passphrase } = options;
  const path = [
    dirname(process.execPath),
    engine.binDir,
    engine.pluginDir,
    ...(engine.languageHost ? [dirname(engine.languageHost)] : []),
    process.env.PATH ?? "",
  ].join(delimiter);
  return {
    PATH: path,
    // The dynamic provider script resolves `@pulumi/pulumi` from its working directory, which
    // is the harness's workspace, outside node_modules' reach.
    NODE_PATH: join(repoRoot, "node_modules"),
    // The provider stored in an older state may name another checkout's compiled operations.
    INCIDENT_SYNC_OPERATIONS: join(repoRoot, "dist", "providers", "incident-operations.js"),
    PULUMI_HOME: join(stateDir, "home"),
    PULUMI_BACKEND_URL: `file://${join(stateDir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}
