// A stack driven the way a user drives the plain `pulumi` CLI, for the benchmarks that measure
// that path (`scale.bench.mjs --via plain`, `cpu-timeline.mjs`). Plain ESM.
import { spawn } from "node:child_process";
import { plainCliEnv } from "../../test/support/plain-cli-env.mjs";

/**
 * Runs `pulumi` with `args` in `cwd`; resolves with whether it exited 0, and its output.
 * @param {string} pulumi the CLI's path
 * @param {string[]} args
 * @param {string} cwd
 * @param {Record<string, string>} env
 * @param {string} [stdin]
 * @returns {Promise<{ ok: boolean, stdout: string, stderr: string }>}
 */
export function runCli(pulumi, args, cwd, env, stdin) {
  return new Promise((resolve, reject) => {
    const child = spawn(pulumi, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        ok: code === 0,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.end(stdin ?? "");
  });
}

/**
 * A stack run as a user runs the plain CLI: `pulumi stack select --create` and
 * `pulumi config set` (the key through stdin, as a secret) in the project folder, then the
 * plain-CLI apply line (docs/provider-and-program.md) for each `up`. The environment is the plain-CLI tests': a standard
 * Pulumi install on PATH (with the project's Node) and its home, plus the backend, the
 * passphrase and, for the runs, PULUMI_SKIP_CHECKPOINTS as that line sets it.
 * @param {{
 *   engine: import("../../src/engine/index.js").EngineLocation,
 *   home: string,
 *   project: string,
 *   stackName: string,
 *   backend: string,
 *   config: Record<string, { value: string, secret?: boolean }>,
 *   skipCheckpoints: boolean,
 *   env?: Record<string, string>,
 * }} options `env`: more variables for every command (a team backend's credentials)
 */
export async function openPlainStack(options) {
  const { engine, project, stackName } = options;
  const env = plainCliEnv(engine, options.home, {
    PULUMI_BACKEND_URL: options.backend,
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    ...options.env,
  });
  const must = async (args, stdin) => {
    const result = await runCli(engine.pulumi, args, project, env, stdin);
    if (!result.ok) throw new Error(`pulumi ${args.join(" ")} failed:\n${result.stderr}`);
    return result;
  };
  await must([
    "stack",
    "select",
    "--create",
    "--stack",
    stackName,
    "--secrets-provider",
    "passphrase",
  ]);
  for (const [key, entry] of Object.entries(options.config)) {
    if (entry.secret)
      await must(["config", "set", "--secret", "--stack", stackName, key], entry.value);
    else await must(["config", "set", "--stack", stackName, key, entry.value]);
  }
  const runEnv = options.skipCheckpoints ? { ...env, PULUMI_SKIP_CHECKPOINTS: "true" } : env;
  return {
    /** The plain-CLI apply line of docs/provider-and-program.md. */
    up: () =>
      runCli(
        engine.pulumi,
        ["up", "--yes", "--skip-preview", "--stack", stackName],
        project,
        runEnv,
      ),
    exportState: async () =>
      JSON.parse((await must(["stack", "export", "--stack", stackName])).stdout),
    close: () => {},
  };
}
