import { createRequire } from "node:module";
import path from "node:path";
import { openPlainStack } from "./plain-stack.mjs";
import { repoRoot } from "./scale-project.mjs";

const require = createRequire(import.meta.url);

/**
 * A stack of a bench in its folder `work`: `plain` runs the docs' plain-CLI apply line for each
 * `up` (`plain-stack.mjs`), `engine` runs it through src/engine, as `incident-sync up` does.
 *
 * @param {{
 *   via: "plain" | "engine",
 *   engine: { pulumi: string },
 *   work: string,
 *   project: string,
 *   stackName: string,
 *   backend: string,
 *   config: Record<string, { value: string, secret?: boolean }>,
 *   skipCheckpoints: boolean,
 *   env?: Record<string, string>,
 * }} options `env`: more variables for the plain CLI's commands (a team backend's credentials)
 */
export function openBenchStack(options) {
  const { via, engine, work, project, stackName, backend, config, skipCheckpoints } = options;
  if (via === "plain") {
    return openPlainStack({
      engine,
      home: path.join(work, "plain-home"),
      project,
      stackName,
      backend,
      config,
      skipCheckpoints,
      env: options.env,
    });
  }
  const { openProjectStack } = require(path.join(repoRoot, "dist", "src", "engine"));
  return openProjectStack({
    projectDir: project,
    stackName,
    backendUrl: backend,
    passphrase: "bench-passphrase",
    pulumiHome: path.join(work, "pulumi-home"),
    engine,
    skipCheckpoints,
    log: () => {},
    config,
  });
}
