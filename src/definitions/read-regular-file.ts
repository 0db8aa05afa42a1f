import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";
import { MAX_FILE_BYTES } from "./limits";
import { fileTooLargeMessage } from "./parse-file";
import type { ProblemCode } from "./problem";
import { decodeUtf8 } from "./utf8";

/** Why a file is not read, as the problem reported for it, and where when a place is known. */
export interface Refusal {
  readonly code: ProblemCode;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** A file's text, or why it was not read. */
export type FileRead = { readonly text: string } | Refusal;

/** Flags that keep a read from following a link it should not or waiting on a pipe. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * A regular file of at most `MAX_FILE_BYTES` in UTF-8, opened without following links or
 * blocking and sized from the open file, so no FIFO or device is ever read; synchronous on purpose.
 */
export function readRegularFile(file: string): FileRead {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return notRegular("a symbolic link");
    return { code: "unreadable-file", message: `the file could not be read: ${reason(error)}` };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return notRegular(kindOf(info));
    if (info.size > MAX_FILE_BYTES) {
      return { code: "file-too-large", message: fileTooLargeMessage(info.size) };
    }
    // A regular file only grows past the size just measured if it is written to meanwhile,
    // which is checked after; its bytes must be UTF-8, or the problem says where they are not.
    const bytes = readFileSync(fd);
    if (bytes.length > MAX_FILE_BYTES) {
      return { code: "file-too-large", message: fileTooLargeMessage(MAX_FILE_BYTES, false) };
    }
    const decoded = decodeUtf8(bytes);
    return "text" in decoded ? decoded : decoded.refused;
  } catch (error) {
    return { code: "unreadable-file", message: `the file could not be read: ${reason(error)}` };
  } finally {
    closeSync(fd);
  }
}

/** The problem for anything but a regular file: a pipe, a socket, a device, a folder. */
export function notRegular(kind: string): Refusal {
  return {
    code: "not-a-regular-file",
    message: `the file is ${kind}, not a regular file; only regular files are read: replace it with one or remove it`,
  };
}

/** What a directory entry or an open file is, in words, when it is not a regular file. */
export function kindOf(
  info: Pick<Stats, "isDirectory" | "isFIFO" | "isSocket" | "isSymbolicLink">,
): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "a device";
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
