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
