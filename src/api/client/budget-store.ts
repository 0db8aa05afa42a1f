import { createHmac } from "node:crypto";
import { closeSync, ftruncateSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ledgerLock } from "./ledger-lock";
import {
  ledgerFolder,
  ledgerSecret,
  openPrivateFile,
  readWhole,
  sweepLedgers,
} from "./private-folder";
import { emptyLedger, type Ledger, parseLedger, serializeLedger } from "./rate-ledger";
import { sleep } from "./sleep";

/** Where a ledger lives; `update` runs one change at a time, across processes for a file. */
export interface BudgetStore {
  /** Where, for messages: the ledger's file, or `this process`. */
  readonly where: string;
  update<T>(change: (ledger: Ledger, now: number) => T): Promise<T>;
}

/** A ledger of this process alone. */
export function memoryStore(): BudgetStore {
  const ledger = emptyLedger();
  return { where: "this process", update: async (change) => change(ledger, Date.now()) };
}

/** Largest ledger file read; a bounded log is far smaller. */
const MAX_LEDGER_BYTES = 1 << 20;

const stores = new Map<string, BudgetStore>();
const folders = new Map<string, string>();

/**
 * The ledger every client of this machine shares for one key and base URL: a small file in
 * the user's private folder (`ledgerFolder`), named by an HMAC of the URL and the key under a
 * secret kept beside it, so the name reveals neither. Changes take a lock for a few
 * syscalls. Where no such folder can be had, or a file in it is not what this code writes,
 * `UnsafeLedgerPath` says which and what to do: a limit kept by one process alone would let
 * the run as a whole exceed it.
 */
export function sharedStore(baseUrl: string, apiKey: string): BudgetStore {
  const folder = privateFolder();
  const name = createHmac("sha256", ledgerSecret(folder))
    .update(`${baseUrl}\n${apiKey}`)
    .digest("hex")
    .slice(0, 32);
  // `.window.json`: releases that kept another shape of ledger use another file.
  const file = join(folder, `${name}.window.json`);
  const known = stores.get(file);
  if (known) return known;
  const store = fileStore(file);
  stores.set(file, store);
  return store;
}

/**
 * A private folder (the ledgers', or the leases'), made, checked and swept of day-old entries
 * once per process and for what chooses it: the runtime folder, else the temporary one.
 */
function privateFolder(kind: "rate-budget" | "leases" = "rate-budget"): string {
  const key = `${process.env.XDG_RUNTIME_DIR ?? ""}\n${tmpdir()}\n${kind}`;
  let folder = folders.get(key);
  if (folder === undefined) {
    folder = ledgerFolder(process.env, kind);
    sweepLedgers(folder);
    folders.set(key, folder);
  }
  return folder;
}

/**
 * The ledger's file, read and written in place under the lock: only its holder reads it, so
 * no copy is renamed over it (which some file systems make wait for the disk).
 */
function fileStore(file: string): BudgetStore {
  const lock = ledgerLock(`${file}.lock`);
  return {
    where: file,
    async update(change) {
      for (;;) {
        if (!lock.tryAcquire()) {
          await sleep(1 + Math.random() * 4);
          continue;
        }
        try {
          const fd = openPrivateFile(file, true) as number;
          try {
            const text = readWhole(fd, file, MAX_LEDGER_BYTES).toString("utf8");
            const ledger = text === "" ? emptyLedger() : parseLedger(text);
            const result = change(ledger, Date.now());
            // A holder that stalled past the stale age lost the lock: its change is not written.
            if (!lock.held()) continue;
            const written = Buffer.from(serializeLedger(ledger));
            writeSync(fd, written, 0, written.length, 0);
            ftruncateSync(fd, written.length);
            return result;
          } finally {
            closeSync(fd);
          }
        } finally {
          lock.release();
        }
      }
    },
  };
}

/**
 * A file of the user's private folder `folder` that every process of this machine finds by
 * `text` (`<folder>/<name>.json`), named by an HMAC under the ledgers' secret, so the name
 * reveals nothing of the text. `UnsafeLedgerPath` where no such folder can be had.
 */
export function sharedFile(folder: "rate-budget" | "leases", text: string): string {
  const ledgers = privateFolder();
  const dir = privateFolder(folder);
  const name = createHmac("sha256", ledgerSecret(ledgers)).update(text).digest("hex").slice(0, 32);
  return join(dir, `${name}.json`);
}
