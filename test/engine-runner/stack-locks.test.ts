import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processStartedAt } from "../../src/engine/process-alive";
import { stackLocks } from "../../src/engine/stack-locks";

/**
 * Issue 36: a lock whose pid the system had given to an unrelated process was taken for a live
 * run, and `cancel` advised `kill -INT` of that process. A lock's time now tells its process
 * from a later one with the same pid.
 */
describe("the locks of a self-managed backend", () => {
  let backend: string;
  afterEach(() => rmSync(backend, { recursive: true, force: true }));

  /** A lock as the Pulumi CLI writes it, held by `pid` since `at`. */
  function lock(pid: number, at: Date, host = hostname()): void {
    const dir = join(backend, ".pulumi", "locks", "organization", "project", "dev");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${pid}-${at.getTime()}.json`),
      JSON.stringify({ pid, username: "ci", hostname: host, timestamp: at.toISOString() }),
    );
  }
  const locks = () => stackLocks(`file://${backend}`, "project", "dev");

  it("are live while the process that took them runs", () => {
    backend = mkdtempSync(join(tmpdir(), "incident-sync-locks-"));
    lock(process.pid, new Date());
    expect(locks()).toMatchObject([{ pid: process.pid, local: true, stale: false }]);
  });

  it("are stale once their pid belongs to a process that started after they were taken", () => {
    backend = mkdtempSync(join(tmpdir(), "incident-sync-locks-"));
    const started = processStartedAt(process.pid) ?? Date.now();
    lock(process.pid, new Date(started - 3_600_000));
    expect(locks()).toMatchObject([{ pid: process.pid, local: true, stale: true }]);
  });

  it("are never stale when taken on another machine, where nothing can be told", () => {
    backend = mkdtempSync(join(tmpdir(), "incident-sync-locks-"));
    lock(process.pid, new Date(0), "another-runner");
    expect(locks()).toMatchObject([{ local: false, stale: false }]);
  });
});
