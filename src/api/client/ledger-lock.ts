import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

/*
 * A lock between processes for the few syscalls that change a ledger: a folder holding one
 * file named by its holder's token. Each holder keeps its own folder beside the lock and
 * renames it into place to take the lock (which succeeds only where no lock folder is, or an
 * empty one) and back to release it, so neither costs a folder made or removed. Unlike a lock
 * file, a lock left by a process that died is taken over atomically: its file is removed by
 * its holder's name, which one waiter alone can do, and the folder only while empty, so a
 * waiter that judged a lock stale can never remove the lock another took since.
 */

/** A lock held longer than this (or dated ahead) was left by a process that died holding it. */
export const STALE_LOCK_MS = 5_000;

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

export interface LedgerLock {
  /** Takes the lock when free (a stale one is taken over first); `false` when another holds it. */
  tryAcquire(): boolean;
  /** Whether this process still holds it (no waiter took it over as stale meanwhile). */
  held(): boolean;
  release(): void;
}

let tokens = 0;
/** Holders' folders of this process, removed when it exits. */
const holderFolders = new Set<string>();
process.once("exit", () => {
  for (const folder of holderFolders) rmSync(folder, { recursive: true, force: true });
});

/** The lock `path` (a folder beside the ledger) for one holder in this process. */
export function ledgerLock(path: string): LedgerLock {
  const token = `${process.pid}.${randomBytes(6).toString("hex")}.${++tokens}`;
  const ready = `${path}.${token}`;
  let made = false;
  let taken = 0;
  /** The holder's file is named anew for every taking, so a name stands for one taking. */
  let name = `${token}.0`;

  /** Renames this holder's folder into place, its file dated now, so no waiter finds it stale. */
  function putInPlace(): boolean {
    if (!made) {
      makeHolderFolder(ready, name);
      made = true;
      holderFolders.add(ready);
    }
    const next = `${token}.${++taken}`;
    renameSync(join(ready, name), join(ready, next));
    name = next;
    const now = new Date();
    utimesSync(join(ready, name), now, now);
    try {
      renameSync(ready, path);
      return true;
    } catch (error) {
      if (!TAKEN.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
      return false;
    }
  }

  const lock: LedgerLock = {
    tryAcquire() {
      if (putInPlace()) return true;
      if (takeOverStale(path)) return putInPlace();
      return false;
    },
    held() {
      try {
        lstatSync(join(path, name));
        return true;
      } catch {
        return false;
      }
    },
    release() {
      // Taken over meanwhile (this process stalled past the stale age): the lock is another's.
      if (!lock.held()) {
        made = false;
        return;
      }
      renameSync(path, ready);
    },
  };
  return lock;
}

function makeHolderFolder(ready: string, name: string): void {
  mkdirSync(ready, { mode: 0o700 });
  const fd = openSync(
    join(ready, name),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
    0o600,
  );
  try {
    writeSync(fd, name);
  } finally {
    closeSync(fd);
  }
}

/** What a rename onto a held lock says, by platform. */
const TAKEN = new Set(["ENOTEMPTY", "EEXIST", "EPERM", "EACCES", "ENOTDIR", "EISDIR"]);

/**
 * Clears the lock at `path` when no live holder has it. `true` when it may be free now.
 */
export function takeOverStale(path: string, now = Date.now()): boolean {
  const seen = staleHolders(path, now);
  if (seen === "held") return false;
  clearStale(path, seen);
  return true;
}

/**
 * What a waiter sees of the lock at `path`: `held` by a live holder, or the stale holders'
 * files to remove (none: free, or a folder left empty). A holder is stale when its file is
 * older than `STALE_LOCK_MS`, or dated ahead (the clock set back).
 */
export function staleHolders(path: string, now = Date.now()): string[] | "held" {
  let entry: Stats;
  try {
    entry = lstatSync(path);
  } catch {
    return [];
  }
  // Not a lock this code made (a lock file of an older release, a link): removed, never followed.
  if (!entry.isDirectory()) return [path];
  let holders: string[];
  try {
    holders = readdirSync(path).map((name) => join(path, name));
  } catch {
    return []; // Released meanwhile.
  }
  for (const holder of holders) {
    let mtimeMs: number;
    try {
      mtimeMs = lstatSync(holder).mtimeMs;
    } catch {
      return []; // Released meanwhile.
    }
    if (Math.abs(now - mtimeMs) < STALE_LOCK_MS) return "held";
  }
  return holders;
}

/**
 * Removes the stale holders a waiter saw, each by its own name: one waiter alone removes a
 * file, and a lock taken since (another name) is never touched. Then the folder, if empty.
 */
export function clearStale(path: string, holders: readonly string[]): void {
  for (const holder of holders) {
    try {
      unlinkSync(holder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  if (!holders.includes(path)) removeEmpty(path);
}

function removeEmpty(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Another's lock was put in place meanwhile, or the folder is gone: either way, try again.
  }
}
