import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import { openReplacement } from "../../project-write";

/**
 * Where a report goes. Writes respect backpressure so a large export never piles up in
 * memory. A file is written beside its target and renamed on success, so a failed run
 * never leaves a truncated report that looks complete.
 */

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

/**
 * The report's file goes where `outPath` says, relative to `cwd`, never through a link: a link
 * at it, or at a folder on its way below `cwd`, is refused (`ProjectWriteError`). A file outside
 * `cwd` is where its writer chose; there only the file itself is checked.
 */
export function openSink(
  outPath: string | undefined,
  stdout: Writable,
  cwd: string = process.cwd(),
): ReportSink {
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
  const target = path.resolve(cwd, outPath);
  const below = path.relative(cwd, target);
  const inside =
    below !== "" && below !== ".." && !below.startsWith(`..${path.sep}`) && !path.isAbsolute(below);
  const root = inside ? cwd : path.dirname(target);
  const replacement = openReplacement(root, inside ? below : path.basename(target), "the report");
  const file: WriteStream = createWriteStream(replacement.partial, {
    encoding: "utf8",
    fd: replacement.fd,
  });
  const failed = once(file, "error").then(([error]) => Promise.reject(error));
  failed.catch(() => {});
  return {
    write: (chunk) => Promise.race([writeWithBackpressure(file, chunk), failed]),
    commit: async () => {
      file.end();
      await Promise.race([once(file, "finish"), failed]);
      replacement.commit();
    },
    abort: async () => {
      file.destroy();
      replacement.abort();
    },
  };
}
