/*
 * `node watchdog.js <host pid> <cli pid>`: if the host dies, SIGINT to the CLI (it writes the
 * state), then kill whatever it started once it is gone. Polls /proc: Node has no prctl.
 */
import { readdirSync, readFileSync } from "node:fs";

const [hostArg, cliArg] = process.argv.slice(2);
const host = Number(hostArg);
const cli = Number(cliArg);
const POLL_MS = 250;
const GRACE_MS = 15_000;

if (!Number.isInteger(host) || !Number.isInteger(cli) || host <= 0 || cli <= 0) {
  process.exit(2);
}

interface ProcessStat {
  parent: number;
  /** Clock ticks after boot: with the pid, it names one process. */
  start: string;
  zombie: boolean;
}

function stat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces: the fields follow its last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { parent: Number(fields[1]), start: fields[19] ?? "", zombie: fields[0] === "Z" };
  } catch {
    return undefined;
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return stat(pid)?.zombie !== true;
};

/** Sends a signal that may find nobody: the target can exit between the look and the kill. */
const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: already gone, which is what was wanted.
  }
};

/** The processes below the CLI, by pid, with their start times. */
const kept = new Map<number, string>();

function keepDescendants(): void {
  let pids: number[];
  try {
    pids = readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return;
  }
  const children = new Map<number, { pid: number; start: string }[]>();
  for (const pid of pids) {
    const found = stat(pid);
    if (!found || found.zombie) continue;
    const list = children.get(found.parent) ?? [];
    list.push({ pid, start: found.start });
    children.set(found.parent, list);
  }
  const roots = [cli, ...kept.keys()];
  const seen = new Set<number>();
  while (roots.length > 0) {
    const pid = roots.pop() as number;
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const child of children.get(pid) ?? []) {
      if (!kept.has(child.pid)) kept.set(child.pid, child.start);
      roots.push(child.pid);
    }
  }
}

/** Kills every kept process that still runs (the same process: its start time matches). */
function killKept(): void {
  for (const [pid, start] of kept) {
    if (stat(pid)?.start === start) signal(pid, "SIGKILL");
  }
}

function finish(): never {
  keepDescendants();
  killKept();
  process.exit(0);
}

let hostDiedAt: number | undefined;
setInterval(() => {
  if (!alive(cli)) finish();
  keepDescendants();
  if (hostDiedAt === undefined) {
    if (alive(host)) return;
    hostDiedAt = Date.now();
    signal(cli, "SIGINT");
    return;
  }
  if (Date.now() - hostDiedAt > GRACE_MS) {
    signal(-cli, "SIGKILL");
    finish();
  }
}, POLL_MS);
