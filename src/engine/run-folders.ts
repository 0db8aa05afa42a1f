import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processRunsSince, processStartedAt } from "./process-alive";

/**
 * A run's private folder (its config copy, event log, output), named by its process's pid and
 * start time, so the next run removes a folder whose process is gone, and only that.
 */
const PREFIX = "incident-sync-run-";
/** `incident-sync-run-<pid>-<start, epoch ms, when known>-<random>`. */
const NAMED = /^incident-sync-run-(\d+)-(?:(\d+)-)?/;

/** Removes the run folders of processes that no longer run; returns their paths. */
export function removeDeadRunFolders(dir: string = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const named = NAMED.exec(name);
    const pid = Number(named?.[1]);
    const started = named?.[2] === undefined ? undefined : Number(named[2]);
    if (!Number.isInteger(pid) || pid <= 0 || processRunsSince(pid, started)) return [];
    const path = join(dir, name);
    try {
      rmSync(path, { recursive: true, force: true });
      return [path];
    } catch {
      // Another user's folder, or one going away meanwhile: not this run's to remove.
      return [];
    }
  });
}

/**
 * A new run folder (0700), after removing those of runs that were killed. Its name records this
 * process's start time too, so that a later process given the same pid is not taken for it.
 */
export function makeRunFolder(dir: string = tmpdir()): string {
  removeDeadRunFolders(dir);
  const started = processStartedAt(process.pid);
  return mkdtempSync(
    join(dir, `${PREFIX}${process.pid}-${started === undefined ? "" : `${Math.floor(started)}-`}`),
  );
}
