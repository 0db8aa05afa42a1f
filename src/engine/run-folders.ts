import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processExists } from "./process-alive";

/**
 * A run's private folder in the temporary directory holds the run's copy of the stack
 * config (the API key encrypted, with its salt), the engine's event log and output. Its name
 * holds the pid of the process that made it, so a folder whose process is gone (a run
 * killed before it could remove it) is removed when the next run starts, and the folder of
 * a run still going never is.
 */
const PREFIX = "incident-sync-run-";
const NAMED = /^incident-sync-run-(\d+)-/;

/** Removes the run folders of processes that no longer run; returns their paths. */
export function removeDeadRunFolders(dir: string = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const pid = Number(NAMED.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || processExists(pid)) return [];
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

/** A new run folder (0700), after removing those of runs that were killed. */
export function makeRunFolder(dir: string = tmpdir()): string {
  removeDeadRunFolders(dir);
  return mkdtempSync(join(dir, `${PREFIX}${process.pid}-`));
}
