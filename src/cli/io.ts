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
   * Releases stdout held back for an error document: a streaming command calls it once its
   * output is worth keeping, and later writes stream.
   */
  readonly releaseStdout?: () => void;
}

/** The real process: its stdout, stderr, environment and working directory. */
export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
