import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "../../user-error";

/*
 * The user's private folder of rate ledgers, and the only way its files are read: every
 * folder on the way made or checked (a real folder, not a link, of this user, that no other
 * user may enter), and every file opened without following a link and without waiting on a
 * FIFO, then checked to be a regular file of this user before a byte is read.
 */

/**
 * The runtime folder, or something in it, that is not what this code would have made there:
 * the leases and the rate budget are never kept in it, nor kept by one process alone instead.
 */
export class UnsafeLedgerPath extends UserError {
  override name = "UnsafeLedgerPath";
  constructor(
    readonly path: string,
    problem: string,
    fix = "Remove it; incident-sync makes its files afresh.",
  ) {
    super(
      `incident-sync keeps its leases and the shared rate budget in a folder of this user alone, and ${path} is ${problem}. ${fix}`,
    );
  }
}

/** What to do about a runtime folder another user made, or may change. */
function folderFix(path: string, fromRuntime: boolean): string {
  const own = "set XDG_RUNTIME_DIR to a folder of your own that no other user may enter (mode 700)";
  return fromRuntime
    ? `Nothing is sent until it is: ${own}, or unset it.`
    : `Nothing is sent until it is: remove ${path} if it is yours (rm -r ${path}), or ${own}.`;
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
/** Bytes of the secret that names the ledgers. */
const SECRET_BYTES = 32;
/** Ledgers, locks and left-overs untouched this long belong to no run any more. */
const OLD_ENTRY_MS = 86_400_000;

const uid = () => process.getuid?.();

/**
 * `$XDG_RUNTIME_DIR/incident-sync/<name>` when XDG_RUNTIME_DIR names a folder that exists,
 * else `<tmp>/incident-sync-<uid>/<name>`; each folder made private, or checked to be, and one
 * that is not (another user's, open to others, a link) refused with `UnsafeLedgerPath`, never
 * passed over. `rate-budget` holds the ledgers, `leases` the leases (`lease.ts`).
 */
export function ledgerFolder(
  env: NodeJS.ProcessEnv = process.env,
  name: "rate-budget" | "leases" = "rate-budget",
): string {
  const runtime = env.XDG_RUNTIME_DIR ? existing(env.XDG_RUNTIME_DIR) : undefined;
  const base =
    runtime === undefined
      ? join(tmpdir(), `incident-sync-${uid() ?? "user"}`)
      : join(runtime.path, "incident-sync");
  if (runtime !== undefined) {
    const problem = notPrivate(runtime.stats, "a folder");
    if (problem) throw new UnsafeLedgerPath(runtime.path, problem, folderFix(runtime.path, true));
  }
  const folder = join(base, name);
  for (const path of [base, folder]) {
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        const why = `a folder that cannot be made (${code ?? String(error)})`;
        throw new UnsafeLedgerPath(path, why, folderFix(path, false));
      }
    }
    const problem = notPrivate(lstatSync(path), "a folder");
    if (problem) throw new UnsafeLedgerPath(path, problem, folderFix(path, false));
  }
  return folder;
}

/**
 * Checks, before a run starts its processes, the folders its leases and rate budget will be
 * kept in: `UnsafeLedgerPath` names one that is not this user's alone, and the fix.
 */
export function checkRuntimeFolder(env: NodeJS.ProcessEnv = process.env): void {
  ledgerFolder(env, "rate-budget");
  ledgerFolder(env, "leases");
}

/** The folder the environment names (a link followed: the user chose it), when it exists. */
function existing(path: string): { path: string; stats: Stats } | undefined {
  try {
    return { path, stats: statSync(path) };
  } catch {
    return undefined;
  }
}

/** What is wrong with an entry of the ledgers' folder, or undefined when it is as made. */
function notPrivate(entry: Stats, kind: "a folder" | "a regular file"): string | undefined {
  const isKind = kind === "a folder" ? entry.isDirectory() : entry.isFile();
  if (!isKind) return `not ${kind} (${describe(entry)})`;
  const me = uid();
  if (me === undefined) return undefined;
  if (entry.uid !== me) return `not this user's (owner ${entry.uid}, not ${me})`;
  if ((entry.mode & 0o077) !== 0) {
    return `open to other users (mode ${(entry.mode & 0o777).toString(8)})`;
  }
  return undefined;
}

function describe(entry: Stats): string {
  if (entry.isSymbolicLink()) return "a link";
  if (entry.isFIFO()) return "a FIFO";
  if (entry.isSocket()) return "a socket";
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return "a device";
  if (entry.isDirectory()) return "a folder";
  return "a regular file";
}

/**
 * A regular file of this user, read whole: undefined when there is none. A link, a FIFO, a
 * device, another user's file, one others may read or one over `maxBytes` is refused with
 * `UnsafeLedgerPath`, before anything blocks or is read.
 */
export function readPrivateFile(path: string, maxBytes: number): Buffer | undefined {
  const fd = openPrivateFile(path, false);
  if (fd === undefined) return undefined;
  try {
    return readWhole(fd, path, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a regular file of this user to read and write, made (private) when `create` and
 * absent; undefined when absent and not made. Refused as `readPrivateFile` refuses.
 */
export function openPrivateFile(path: string, create: boolean): number | undefined {
  let fd: number;
  try {
    fd = openSync(
      path,
      (create ? constants.O_RDWR | constants.O_CREAT : constants.O_RDONLY) | NO_FOLLOW | NON_BLOCK,
      0o600,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP" || code === "EMLINK") throw new UnsafeLedgerPath(path, "a link");
    throw error;
  }
  const problem = notPrivate(fstatSync(fd), "a regular file");
  if (problem) {
    closeSync(fd);
    throw new UnsafeLedgerPath(path, problem);
  }
  return fd;
}

/** The whole of an open private file, refused over `maxBytes`. */
export function readWhole(fd: number, path: string, maxBytes: number): Buffer {
  const { size } = fstatSync(fd);
  if (size > maxBytes) {
    throw new UnsafeLedgerPath(path, `a file of ${size} bytes, more than ${maxBytes}`);
  }
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/**
 * The secret that names the ledgers, made once per folder: written whole beside it, then
 * linked into place, so no process ever reads half of one.
 */
export function ledgerSecret(folder: string): Buffer {
  const file = join(folder, ".secret");
  const found = readPrivateFile(file, SECRET_BYTES);
  if (found?.length === SECRET_BYTES) return found;
  if (found !== undefined) {
    throw new UnsafeLedgerPath(file, `a file of ${found.length} bytes, not ${SECRET_BYTES}`);
  }
  const temporary = join(folder, `.secret.${process.pid}.${randomBytes(4).toString("hex")}`);
  writeFileSync(temporary, randomBytes(SECRET_BYTES), { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  const secret = readPrivateFile(file, SECRET_BYTES);
  if (secret?.length !== SECRET_BYTES) {
    throw new UnsafeLedgerPath(file, `not a secret of ${SECRET_BYTES} bytes`);
  }
  return secret;
}

/** Ledgers, locks and left-overs no run has touched for a day are removed; links are not followed. */
export function sweepLedgers(folder: string, now = Date.now()): void {
  for (const name of readdirSync(folder)) {
    if (name === ".secret") continue;
    const path = join(folder, name);
    try {
      if (lstatSync(path).mtimeMs < now - OLD_ENTRY_MS) rmSync(path, { recursive: true });
    } catch {
      // Another process removed it first.
    }
  }
}
