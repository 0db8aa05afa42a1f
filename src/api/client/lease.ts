import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { sharedFile } from "./budget-store";
import { readPrivateFile } from "./private-folder";
import { sleep } from "./sleep";

/**
 * A lease on one thing an account's writes must not do twice at once (opening one
 * definition's incident, posting on one incident): every process of this machine that acts
 * for the same account at the same URL waits for the holder before it reads and writes. It
 * covers runs on one machine; runs on two machines at the same second are not covered.
 */
export interface Lease {
  /** What the lease is on (`opening:…`, `incident:<id>`), as the machine named it. */
  readonly key: string;
  /** When a holder last let go of this lease (ms), if one did: a read before it may be stale. */
  readonly releasedAt: number | undefined;
  /**
   * A write a holder sent that got no answer (its entry, and when): it may still be made. A
   * holder killed with a write in flight leaves it here too, from its intent.
   */
  readonly unanswered: Unanswered | undefined;
  /** What a holder recorded having made under the lease: to read, even where a list omits it. */
  readonly made: Made | undefined;
  /**
   * Records a write about to leave, on disk (synced) before it is sent: whoever takes the lease
   * over from a holder that died finds it, as a write that got no answer. `made`: the incident
   * it is made on (a post), which the next holder reads even where the list omits it.
   */
  intend(write: Intent, made?: Made): void;
  /**
   * Lets go: the next holder learns when, of a write that got no answer, and of what was made.
   * `settled` false (the operation threw): the last write intended may be in flight still.
   */
  release(outcome: { unanswered?: Unanswered; made?: Made; settled: boolean }): void;
}

/** A write that got no answer, as the next holder learns of it. */
export interface Unanswered {
  entry: number;
  at: string;
  /** The monotonic clock of its boot when it was sent, if known. */
  clock?: { boot: string; ms: number } | undefined;
}

/** A write about to leave: the definition's resource, the entry it carries (0: the create), when. */
export interface Intent extends Unanswered {
  resource: string;
}

/** What a holder made under a lease: the incident it opened or posted on. */
export interface Made {
  incidentId: string;
}

/** The longest a holder keeps a lease: one held longer belongs to a run that hangs. */
const LONGEST_HOLD_MS = 30 * 60 * 1000;

/**
 * Takes the lease on `key` for the account at `baseUrl`, waiting while another process (or
 * another resource of this one) holds it. A lock left by a process that no longer runs, or
 * held longer than any run, is taken over, and counts as a release (it may have written): the
 * write it intended last is kept as one that got no answer.
 */
export async function takeLease(
  scope: { baseUrl: string; accountId: string | undefined },
  key: string,
): Promise<Lease> {
  const file = sharedFile("leases", `${scope.baseUrl}\n${scope.accountId ?? ""}\n${key}`);
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
  const { intent, ...found } = recordOf(file);
  // An intent still on record is a holder's that died sending it: a write that got no answer.
  found.unanswered = latest(found.unanswered, intent);
  let intended: Intent | undefined;
  return {
    key,
    releasedAt: found.releasedAt,
    unanswered: found.unanswered,
    made: found.made,
    intend(write, made) {
      intended = write;
      if (made !== undefined) found.made = made;
      written(file, { ...found, intent: write });
    },
    release({ unanswered, made, settled }) {
      const pending = settled ? undefined : intended;
      written(file, {
        releasedAt: Date.now(),
        // A write left unanswered before is kept: whether it was made is for a read to say.
        unanswered: latest(unanswered ?? found.unanswered, pending),
        made: made ?? found.made,
      });
      try {
        if (readText(lock) === token) unlinkSync(lock);
      } catch {
        // Taken over meanwhile: another's now.
      }
    },
  };
}

/** Of two unanswered writes, the one sent last: the other was settled before it was sent. */
function latest(a: Unanswered | undefined, b: Unanswered | undefined): Unanswered | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const later = Date.parse(b.at) > Date.parse(a.at) ? b : a;
  // Whole, its monotonic clock with it: the window is measured by it where it can be.
  return { entry: later.entry, at: later.at, ...(later.clock ? { clock: later.clock } : {}) };
}

/** Whether a lock's holder has stopped: its process gone, or held longer than any run. */
function abandoned(lock: string): boolean {
  try {
    const [pid, , since] = (readText(lock) ?? "").split(" ");
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

/** What a lease's file holds: the last release, and the write its holder is sending, if any. */
interface LeaseRecord {
  releasedAt: number | undefined;
  unanswered: Unanswered | undefined;
  made?: Made | undefined;
  intent?: Intent | undefined;
}

function recordOf(file: string): LeaseRecord {
  let read: Record<string, unknown>;
  try {
    read = JSON.parse(readText(file) ?? "") as Record<string, unknown>;
  } catch {
    return { releasedAt: undefined, unanswered: undefined };
  }
  const object = (value: unknown) =>
    (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const write = (value: unknown): Unanswered | undefined => {
    const { entry, at, clock } = object(value);
    const { boot, ms } = object(clock);
    const timed =
      typeof boot === "string" && Number.isFinite(ms) ? { clock: { boot, ms: ms as number } } : {};
    return typeof entry === "number" && typeof at === "string"
      ? { entry, at, ...timed }
      : undefined;
  };
  const { releasedAt } = read;
  const intent = object(read.intent);
  const { incidentId } = object(read.made);
  const sent = write(intent);
  return {
    releasedAt:
      typeof releasedAt === "number" && Number.isFinite(releasedAt) ? releasedAt : undefined,
    unanswered: write(read.unanswered),
    made: typeof incidentId === "string" && incidentId !== "" ? { incidentId } : undefined,
    intent: sent && { ...sent, resource: String(intent.resource ?? "") },
  };
}

/** Writes a lease's record whole, and syncs it and its folder before going on: a kill may follow. */
function written(file: string, record: LeaseRecord): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify(record));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const folder = openSync(dirname(file), "r");
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/** A lease's file or lock, read as the private folder's files are: no link, this user's, small. */
function readText(file: string): string | undefined {
  return readPrivateFile(file, LEASE_FILE_MAX)?.toString("utf8");
}

/** A lease's record holds a few small fields; anything larger is not one. */
const LEASE_FILE_MAX = 64 * 1024;
