import { randomBytes } from "node:crypto";
import {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { sharedFile } from "./budget-store";
import { sleep } from "./sleep";

/**
 * A lease on one thing an account's writes must not do twice at once (opening one
 * definition's incident, posting on one incident): every process of this machine that acts
 * for the same account at the same URL waits for the holder before it reads and writes. It
 * covers runs on one machine; runs on two machines at the same second are not covered.
 */
export interface Lease {
  /** When a holder last let go of this lease (ms), if one did: a read before it may be stale. */
  readonly releasedAt: number | undefined;
  /** A write a holder sent that got no answer (its entry, and when): it may still be made. */
  readonly unanswered: Unanswered | undefined;
  /** Lets go: the next holder learns when, and of a write that got no answer. */
  release(unanswered?: Unanswered): void;
}

/** A write that got no answer, as the next holder learns of it. */
export interface Unanswered {
  entry: number;
  at: string;
  /** The monotonic clock of its boot when it was sent, if known. */
  clock?: { boot: string; ms: number } | undefined;
}

/** The longest a holder keeps a lease: one held longer belongs to a run that hangs. */
const LONGEST_HOLD_MS = 30 * 60 * 1000;

/** Where no shared directory can be had: this process's leases, and their last release. */
const own = new Map<string, Promise<void>>();
const ownReleased = new Map<string, Released>();

/**
 * Takes the lease on `key` for the account at `baseUrl`, waiting while another process (or
 * another resource of this one) holds it. A lock left by a process that no longer runs, or
 * held longer than any run, is taken over, and counts as a release (it may have written).
 */
export async function takeLease(
  scope: { baseUrl: string; accountId: string | undefined },
  key: string,
): Promise<Lease> {
  const file = sharedFile("leases", `${scope.baseUrl}\n${scope.accountId ?? ""}\n${key}`);
  if (file === undefined) return ownLease(key);
  const lock = `${file}.lock`;
  const token = `${process.pid} ${randomBytes(8).toString("hex")} ${Date.now()}`;
  for (;;) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      writeSync(fd, token);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (abandoned(lock)) {
        written(file, { ...recordOf(file), releasedAt: Date.now() });
        continue;
      }
      await sleep(50 + Math.random() * 150);
    }
  }
  const { releasedAt, unanswered } = recordOf(file);
  return {
    releasedAt,
    unanswered,
    release(now) {
      // A write left unanswered before is kept: whether it was made is for a read to say.
      written(file, { releasedAt: Date.now(), unanswered: now ?? unanswered });
      try {
        if (readFileSync(lock, "utf8") === token) unlinkSync(lock);
      } catch {
        // Taken over meanwhile: another's now.
      }
    },
  };
}

/** Whether a lock's holder has stopped: its process gone, or held longer than any run. */
function abandoned(lock: string): boolean {
  try {
    const [pid, , since] = readFileSync(lock, "utf8").split(" ");
    const held = Date.now() - (Number(since) || Date.now());
    if (alive(Number(pid)) && held < LONGEST_HOLD_MS) return false;
    unlinkSync(lock);
  } catch {
    // Let go of meanwhile, or not written yet: try again.
    return false;
  }
  return true;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What the last holder left: when it let go, and a write of its that got no answer. */
interface Released {
  releasedAt: number | undefined;
  unanswered: Unanswered | undefined;
}

function recordOf(file: string): Released {
  try {
    const { releasedAt, unanswered } = JSON.parse(readFileSync(file, "utf8")) as {
      releasedAt?: unknown;
      unanswered?: { entry?: unknown; at?: unknown; clock?: { boot?: unknown; ms?: unknown } };
    };
    const { entry, at, clock } = unanswered ?? {};
    const { boot, ms } = clock ?? {};
    const timed =
      typeof boot === "string" && Number.isFinite(ms) ? { clock: { boot, ms: ms as number } } : {};
    const write =
      typeof entry === "number" && typeof at === "string" ? { entry, at, ...timed } : undefined;
    const when =
      typeof releasedAt === "number" && Number.isFinite(releasedAt) ? releasedAt : undefined;
    return { releasedAt: when, unanswered: write };
  } catch {
    return { releasedAt: undefined, unanswered: undefined };
  }
}

function written(file: string, released: Released): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(released), { mode: 0o600 });
  renameSync(temporary, file);
}

/** A lease of this process alone: resources of one run still wait for each other. */
async function ownLease(key: string): Promise<Lease> {
  const before = own.get(key) ?? Promise.resolve();
  let letGo = () => {};
  const held = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  own.set(
    key,
    before.then(() => held),
  );
  await before;
  const last = ownReleased.get(key);
  const release = (now?: Unanswered) => {
    ownReleased.set(key, { releasedAt: Date.now(), unanswered: now ?? last?.unanswered });
    letGo();
  };
  return {
    releasedAt: last?.releasedAt,
    unanswered: last?.unanswered,
    release,
  };
}
