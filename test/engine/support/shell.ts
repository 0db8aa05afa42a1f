import { spawn } from "node:child_process";

export interface ShellResult {
  line: string;
  code: number;
  output: string;
}

/**
 * Runs one command line with bash in `cwd` and `env`, as a user's terminal would. Never
 * synchronously: the emulator on the other side of HTTP runs in this process.
 */
export function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", line], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ line, code: code ?? 1, output }));
  });
}

/** Runs lines in order until one fails: each result, the failing one (if any) last. */
export async function shUntilFailure(
  lines: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<ShellResult[]> {
  const results: ShellResult[] = [];
  for (const line of lines) {
    const result = await sh(line, cwd, env);
    results.push(result);
    if (result.code !== 0) break;
  }
  return results;
}

/** Runs lines in order; throws with the output of the first that fails. */
export async function shAll(
  lines: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<ShellResult[]> {
  const results = await shUntilFailure(lines, cwd, env);
  const failed = results.find((result) => result.code !== 0);
  if (failed)
    throw new Error(`\`${failed.line}\` exited ${failed.code} in ${cwd}:\n${failed.output}`);
  return results;
}
