import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The compiled CLI; `npm test` builds it first. */
export const CLI = path.join(__dirname, "..", "..", "dist", "src", "cli", "main.js");

export interface CliRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the compiled CLI with this Node (24) as a real child process. With `env`, the child
 * gets only PATH and those variables, so the caller's own MONITORING_* settings cannot leak in.
 */
export function runCli(
  args: readonly string[],
  cwd: string,
  env?: NodeJS.ProcessEnv,
): Promise<CliRun> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing; run npm run build (npm test does) before these tests.`);
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd,
        encoding: "utf8",
        ...(env === undefined ? {} : { env: { PATH: process.env.PATH, ...env } }),
      },
      (error, stdout, stderr) => {
        const exitCode = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ exitCode, stdout, stderr });
      },
    );
  });
}

/** Where `incident-sync up` runs a stack: its project, name and state folder, the API and account. */
export interface UpTarget {
  readonly project: string;
  readonly stack: string;
  readonly state: string;
  readonly apiUrl: string;
  readonly accountId: string;
}

/** `incident-sync up`'s arguments for `target`, as a pipeline passes them, then `more`. */
export function upArgs(target: UpTarget, ...more: string[]): string[] {
  return [
    "up",
    "--project",
    target.project,
    "--stack",
    target.stack,
    "--state",
    target.state,
    "--api-url",
    target.apiUrl,
    "--account-id",
    target.accountId,
    ...more,
  ];
}

/** The variables a pipeline gives `incident-sync up`: the key, the state's passphrase, a home. */
export function pipelineEnv(apiKey: string, passphrase: string): NodeJS.ProcessEnv {
  return {
    MONITORING_API_KEY: apiKey,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    HOME: process.env.HOME ?? tmpdir(),
  };
}
