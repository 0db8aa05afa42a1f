import { readdirSync, readFileSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { processRunsSince } from "./process-alive";

/** A lock file of a self-managed (`file://`) backend, as the Pulumi CLI writes it. */
const LockFile = z.object({
  pid: z.number(),
  username: z.string().optional(),
  hostname: z.string(),
  timestamp: z.string().optional(),
});

export interface StackLock {
  file: string;
  pid: number;
  username: string | undefined;
  hostname: string;
  timestamp: string | undefined;
  /** Written on this host, where whether its process runs can be told. */
  local: boolean;
  /**
   * Held by a process of this host that no longer exists, or whose pid now belongs to a process
   * that started after the lock was taken: no run can be holding it.
   */
  stale: boolean;
}

/** The locks on a stack of a `file://` backend; none for other backends, which manage their own. */
export function stackLocks(backendUrl: string, project: string, stack: string): StackLock[] {
  if (!backendUrl.startsWith("file://")) return [];
  const dir = join(fileURLToPath(backendUrl), ".pulumi", "locks", "organization", project, stack);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = join(dir, name);
    let parsed: z.infer<typeof LockFile>;
    try {
      parsed = LockFile.parse(JSON.parse(readFileSync(file, "utf8")));
    } catch {
      return [];
    }
    return [
      {
        file,
        pid: parsed.pid,
        username: parsed.username,
        hostname: parsed.hostname,
        timestamp: parsed.timestamp,
        local: parsed.hostname === hostname(),
        // The lock's time tells its process from a later one given the same pid.
        stale:
          parsed.hostname === hostname() &&
          !processRunsSince(
            parsed.pid,
            parsed.timestamp ? Date.parse(parsed.timestamp) : undefined,
          ),
      },
    ];
  });
}

/** Removes lock files; the caller has decided they are stale or the user asked for it. */
export function removeLocks(locks: readonly StackLock[]): void {
  for (const lock of locks) {
    rmSync(lock.file, { force: true });
    // The storage layer keeps each blob's metadata beside it.
    rmSync(`${lock.file}.attrs`, { force: true });
  }
}

/** `pid 123 of alice@runner-7 since 2026-11-23T08:00:00Z`. */
export function describeLock(lock: StackLock): string {
  const who = `${lock.username ? `${lock.username}@` : ""}${lock.hostname}`;
  return `pid ${lock.pid} of ${who}${lock.timestamp ? ` since ${lock.timestamp}` : ""}`;
}
