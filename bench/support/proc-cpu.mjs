// CPU time of Linux processes from /proc/<pid>/stat, for the benchmarks that count it. Plain ESM.
import { readFileSync } from "node:fs";

/** /proc counts CPU time in clock ticks of 1/100 s (USER_HZ), whatever the kernel's own rate. */
const MS_PER_TICK = 10;

/**
 * CPU ms of a process by /proc/<pid>/stat: `own`, its user and system time (utime + stime);
 * `children`, that of its children and their descendants once reaped (cutime + cstime).
 * Throws when the process is gone.
 * @param {number | "self"} pid
 * @returns {{ own: number, children: number }}
 */
export function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name (in parentheses, which may hold spaces): state is field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = (...indexes) => indexes.reduce((sum, index) => sum + Number(fields[index]), 0);
  return { own: ticks(11, 12) * MS_PER_TICK, children: ticks(13, 14) * MS_PER_TICK };
}
