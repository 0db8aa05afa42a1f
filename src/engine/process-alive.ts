import { readFileSync } from "node:fs";

/** Whether `pid` runs on this machine: a zombie (killed, not yet reaped by its parent) does not. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    // No /proc (not Linux): the signal said it exists.
    return true;
  }
}

/** The clock ticks /proc counts in (USER_HZ), which Linux fixes at 100 for user space. */
const TICKS_PER_SECOND = 100;

/**
 * When `pid` started, in epoch milliseconds, to the second (from /proc: its start in ticks
 * after boot, and the boot time); undefined without /proc or when it is gone.
 */
export function processStartedAt(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces: the fields follow its last ")".
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(boot)) return undefined;
    return (boot + ticks / TICKS_PER_SECOND) * 1_000;
  } catch {
    return undefined;
  }
}

/** How far the boot time (whole seconds) and a recorded time may disagree. */
const CLOCK_SLACK_MS = 2_000;

/**
 * Whether the process that was `pid` at `at` (epoch milliseconds) still runs: `pid` exists,
 * and did not start after `at`, so a pid the system has since given to another process is
 * told apart. Where the start time cannot be read, whether `pid` exists.
 */
export function processRunsSince(pid: number, at: number | undefined): boolean {
  if (!processExists(pid)) return false;
  if (at === undefined || !Number.isFinite(at)) return true;
  const started = processStartedAt(pid);
  return started === undefined || started <= at + CLOCK_SLACK_MS;
}
