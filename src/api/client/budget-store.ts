import { createHmac, randomBytes } from "node:crypto";
import {
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sleep } from "./sleep";

/** What a rate budget keeps: the theoretical arrival time of the next request (GCRA), epoch ms. */
export interface BudgetState {
  tat: number;
}

/** Where a budget's state lives; `update` runs one change at a time, across processes for a file. */
export interface BudgetStore {
  update<T>(change: (state: BudgetState) => T): Promise<T>;
}

/** A budget of this process alone. */
export function memoryStore(): BudgetStore {
  const state: BudgetState = { tat: 0 };
  return { update: async (change) => change(state) };
}

/** A lock older than this was left by a process that died inside the few syscalls it guards. */
const STALE_LOCK_MS = 5_000;
/** A ledger untouched this long belongs to no run any more. */
const OLD_LEDGER_MS = 86_400_000;

const stores = new Map<string, BudgetStore>();
let warned = false;

/**
 * The budget every client of this machine shares for one key and base URL: a small file in
 * `$XDG_RUNTIME_DIR/incident-sync/rate-budget`, else `<tmp>/incident-sync-<uid>/rate-budget`
 * (a directory only this user may enter), named by an HMAC of the URL and the key
 * (`sharedFile`), so the name reveals neither. Changes take a lock file for a few syscalls.
 * Where no such directory can be had, the budget is this process's own, with a warning.
 */
export function sharedStore(baseUrl: string, apiKey: string): BudgetStore {
  const file = sharedFile("rate-budget", `${baseUrl}\n${apiKey}`);
  if (file === undefined) return memoryStore();
  const known = stores.get(file);
  if (known) return known;
  const store = orOwn(fileStore(file));
  stores.set(file, store);
  return store;
}

/** The file's store, until a change fails for another reason than a lock: then this process's own. */
function orOwn(file: BudgetStore): BudgetStore {
  let own: BudgetStore | undefined;
  return {
    async update(change) {
      if (own) return own.update(change);
      try {
        return await file.update(change);
      } catch (error) {
        cannotShare(error);
        own = memoryStore();
        return own.update(change);
      }
    },
  };
}

function cannotShare(error: unknown): void {
  if (warned) return;
  warned = true;
  process.emitWarning(
    `incident-sync: the rate limit and leases cannot be shared with other processes (${error instanceof Error ? error.message : String(error)}); this process keeps to them alone.`,
  );
}

/**
 * A file of the user's own directory that every process of this machine finds by `text`
 * (`<folder>/<name>.json`), named by an HMAC under a secret kept beside the budgets, so the name
 * reveals nothing of the text; undefined where no such directory can be had (with a warning).
 */
export function sharedFile(folder: "rate-budget" | "leases", text: string): string | undefined {
  const dir = sharedDirectory(folder);
  const budgets = sharedDirectory("rate-budget");
  if (dir === undefined || budgets === undefined) return undefined;
  try {
    const name = createHmac("sha256", secretOf(budgets)).update(text).digest("hex").slice(0, 32);
    return join(dir, `${name}.json`);
  } catch (error) {
    cannotShare(error);
    return undefined;
  }
}

function fileStore(file: string): BudgetStore {
  const lock = `${file}.lock`;
  const token = `${process.pid}.${randomBytes(8).toString("hex")}`;
  return {
    async update(change) {
      for (;;) {
        let fd: number;
        try {
          fd = openSync(lock, "wx", 0o600);
          writeSync(fd, token);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          if (staleLock(lock)) continue;
          await sleep(1 + Math.random() * 4);
          continue;
        }
        try {
          const state = readState(file);
          const result = change(state);
          const temporary = `${file}.${process.pid}.tmp`;
          writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
          renameSync(temporary, file);
          return result;
        } finally {
          closeSync(fd);
          release(lock, token);
        }
      }
    },
  };
}

function readState(file: string): BudgetState {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    const tat = (parsed as { tat?: unknown } | null)?.tat;
    return { tat: typeof tat === "number" && Number.isFinite(tat) ? tat : 0 };
  } catch {
    // Absent, or cut short by a crash between write and rename: start afresh.
    return { tat: 0 };
  }
}

/** Removes this process's lock; one taken as stale meanwhile is another's now, and stays. */
function release(lock: string, token: string): void {
  try {
    if (readFileSync(lock, "utf8") === token) unlinkSync(lock);
  } catch {
    // Gone already.
  }
}

/** A lock older than a holder ever keeps it, or dated ahead (the clock was set back). */
function staleLock(lock: string): boolean {
  try {
    if (Math.abs(Date.now() - statSync(lock).mtimeMs) < STALE_LOCK_MS) return false;
    unlinkSync(lock);
  } catch {
    // Gone meanwhile: try again.
  }
  return true;
}

const directories = new Map<string, string | null>();

/**
 * The user's own directory for what processes share (`rate-budget`, `leases`): under
 * `$XDG_RUNTIME_DIR/incident-sync`, else `<tmp>/incident-sync-<uid>`, made and checked once.
 */
function sharedDirectory(folder: string): string | undefined {
  const known = directories.get(folder);
  if (known !== undefined) return known ?? undefined;
  let directory: string | null;
  try {
    const runtime = process.env.XDG_RUNTIME_DIR;
    const base =
      runtime && isDirectory(runtime)
        ? join(runtime, "incident-sync")
        : join(tmpdir(), `incident-sync-${process.getuid?.() ?? "user"}`);
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const owner = lstatSync(base);
    const uid = process.getuid?.();
    if (!owner.isDirectory() || (uid !== undefined && owner.uid !== uid)) {
      throw new Error(`${base} is not a directory of this user`);
    }
    if ((owner.mode & 0o077) !== 0 && uid !== undefined) {
      throw new Error(`${base} may be entered by other users`);
    }
    const dir = join(base, folder);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    sweep(dir);
    directory = dir;
  } catch (error) {
    directory = null;
    cannotShare(error);
  }
  directories.set(folder, directory);
  return directory ?? undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

let secret: Buffer | undefined;

/** The HMAC secret of the ledgers' names, written whole before anyone can read it. */
function secretOf(dir: string): Buffer {
  if (secret) return secret;
  const file = join(dir, ".secret");
  const temporary = join(dir, `.secret.${process.pid}.tmp`);
  writeFileSync(temporary, randomBytes(32), { mode: 0o600 });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  secret = readFileSync(file);
  return secret;
}

/** Files and locks no run has touched for a day are removed. */
function sweep(dir: string): void {
  const old = Date.now() - OLD_LEDGER_MS;
  for (const name of readdirSync(dir)) {
    if (name === ".secret") continue;
    try {
      if (statSync(join(dir, name)).mtimeMs < old) unlinkSync(join(dir, name));
    } catch {
      // Another process removed it first.
    }
  }
}
