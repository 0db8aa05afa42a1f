import type { Writable } from "node:stream";

/**
 * What a command reads and writes besides its arguments, injected so tests can run the
 * command in-process and read its output.
 */
export interface CommandIo {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
