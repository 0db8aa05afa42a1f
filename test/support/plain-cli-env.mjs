import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";

/**
 * The environment of a user's terminal for the plain `pulumi` CLI, with nothing set but what
 * the README asks for (`extra`): a home of its own under `home`, and a PATH of a standard
 * Pulumi install (pulumi, pulumi-language-nodejs and the dynamic provider plugin in one
 * directory) and the project's Node 24, as .nvmrc asks. Plain ESM, so the tests and
 * `bench/scale.bench.mjs --via plain` share it.
 * @param {import("../../src/engine/index.js").EngineLocation} engine
 * @param {string} home
 * @param {Record<string, string>} extra
 * @returns {Record<string, string>}
 */
export function plainCliEnv(engine, home, extra) {
  mkdirSync(home, { recursive: true });
  return {
    HOME: home,
    // Pulumi finds its home (credentials, plugins) from the account, not $HOME.
    PULUMI_HOME: join(home, ".pulumi"),
    PATH: [dirname(process.execPath), engine.binDir, "/usr/local/bin", "/usr/bin", "/bin"].join(
      delimiter,
    ),
    // There is no internet here, only the registries: no update checks and no audit (what
    // this machine's ~/.npmrc says for its real users), and npm reads the machine's cache.
    PULUMI_SKIP_UPDATE_CHECK: "true",
    npm_config_cache: join(homedir(), ".npm"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    // This machine's npm settings (its registry's certificate authority among them); npm
    // looks for them beside the Node it runs on, which here is the project's Node 24.
    npm_config_globalconfig: machineNpmConfig(),
    ...extra,
  };
}

/** The global npm config file of this machine's npm, as `npm config get globalconfig` says. */
function machineNpmConfig() {
  return (
    process.env.npm_config_globalconfig ??
    execFileSync("npm", ["config", "get", "globalconfig"], { encoding: "utf8" }).trim()
  );
}
