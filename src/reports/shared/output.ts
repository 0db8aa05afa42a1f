import { once } from "node:events";
import { constants, createWriteStream, openSync, rmSync, type WriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Writable } from "node:stream";

/**
 * Where a report goes. Writes respect backpressure so a large export never piles up in
 * memory. A file is written beside its target and renamed on success, so a failed run
 * never leaves a truncated report that looks complete.
 */

/**
 * The partial file is made anew, never opened through a link: whatever is at its name is
 * removed first, and the open fails if anything appears there again.
 */
const PARTIAL_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
export interface ReportSink {
  write(chunk: string): Promise<void>;
  /** Finishes the report: flushes and, for a file, moves it into place. */
  commit(): Promise<void>;
  /** Drops a partial file after a failure; stdout cannot be taken back. */
  abort(): Promise<void>;
}

async function writeWithBackpressure(stream: Writable, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, "drain");
}

export function openSink(outPath: string | undefined, stdout: Writable): ReportSink {
  if (!outPath) {
    // A closed pipe (`… | head`) ends the export with an error instead of a crash.
    const failed = once(stdout, "error").then(([error]) => Promise.reject(error));
    failed.catch(() => {});
    return {
      write: (chunk) => Promise.race([writeWithBackpressure(stdout, chunk), failed]),
      commit: async () => {},
      abort: async () => {},
    };
  }
  const partial = `${outPath}.partial`;
  rmSync(partial, { force: true });
  const file: WriteStream = createWriteStream(partial, {
    encoding: "utf8",
    fd: openSync(partial, PARTIAL_FLAGS, 0o644),
  });
  const failed = once(file, "error").then(([error]) => Promise.reject(error));
  failed.catch(() => {});
  return {
    write: (chunk) => Promise.race([writeWithBackpressure(file, chunk), failed]),
    commit: async () => {
      file.end();
      await Promise.race([once(file, "finish"), failed]);
      await rename(partial, outPath);
    },
    abort: async () => {
      file.destroy();
      await rm(partial, { force: true });
    },
  };
}
