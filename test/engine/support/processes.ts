import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Live processes whose working directory is `dir` or below it: an engine run's processes. */
export function processesIn(dir: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        return (cwd === dir || cwd.startsWith(`${dir}/`)) && !isZombie(pid);
      } catch {
        return false;
      }
    });
}

/** `pid` and every process below it, by parent id, deepest last. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree: number[] = [];
  const visit = (id: number) => {
    tree.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** Sends SIGKILL to every process given, as a cancelled CI job or a lost runner does. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/**
 * Kills every process running in `dir` until none is left, as a lost runner leaves nothing:
 * a process started between a look and its kill (a plugin starting up) goes too. False when
 * some are still there after `timeoutMs`.
 */
export function killEverythingIn(dir: string, timeoutMs = 10_000): Promise<boolean> {
  return eventually(() => {
    const left = processesIn(dir);
    killAll(left);
    return left.length === 0;
  }, timeoutMs);
}

/**
 * Kills a run as a lost runner dies: `run`, every process below it and everything running in
 * `dir` (its project) at once, with SIGKILL. Resolves once `run` has exited and nothing runs
 * in `dir`, a process started between the look and the kill included; rejects when some
 * process will not go.
 */
export async function killRun(run: ChildProcess, dir: string): Promise<void> {
  const exited = new Promise((resolve) => {
    if (run.exitCode !== null || run.signalCode !== null) resolve(undefined);
    else run.once("exit", resolve);
  });
  killAll([...processTree(run.pid ?? 0), ...processesIn(dir)]);
  await exited;
  if (!(await killEverythingIn(dir))) {
    throw new Error(`processes still run in ${dir} after kill -9: ${processesIn(dir).join(", ")}`);
  }
}

/** Waits until `check` holds, polling; false when `timeoutMs` passes first. */
export async function eventually(
  check: () => boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return check();
}
