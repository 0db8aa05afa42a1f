import type { Writable } from "node:stream";

/**
 * What a command reads and writes besides its arguments. Every command takes it, so tests
 * run commands in-process with their own streams, environment and working directory.
 */
export interface CommandIo {
  readonly stdout: Writable;
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /**
   * Present when stdout is held back until the command succeeds, as the CLI runner does so
   * that a failure can replace the output with an error document. A command that streams
   * calls it once its output is sure to be worth keeping (every check's first page arrived):
   * what it held goes out and later writes stream. Nothing else needs to know about it.
   */
  readonly releaseStdout?: () => void;
}

/** The real process: its stdout, stderr, environment and working directory. */
export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
