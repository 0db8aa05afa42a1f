import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processStartedAt } from "../../src/engine/process-alive";
import { makeRunFolder, removeDeadRunFolders } from "../../src/engine/run-folders";

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

describe("run folders", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("removes the folder of a run whose process is gone, key copy and all, and keeps a live run's", () => {
    dir = mkdtempSync(join(tmpdir(), "incident-sync-test-folders-"));
    const dead = join(dir, `incident-sync-run-${deadPid()}-AbC123`);
    const live = join(dir, `incident-sync-run-${process.pid}-DeF456`);
    const unnamed = join(dir, "incident-sync-run-GhI789");
    for (const folder of [dead, live, unnamed]) {
      mkdirSync(folder);
      writeFileSync(join(folder, "Pulumi.prod.yaml"), "encryptionsalt: v1:abc\n");
    }
    expect(removeDeadRunFolders(dir)).toEqual([dead]);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(unnamed)).toBe(true);
  });

  it("names a new run folder by this process and its start time, readable by its owner only", () => {
    dir = mkdtempSync(join(tmpdir(), "incident-sync-test-folders-"));
    const folder = makeRunFolder(dir);
    const started = Math.floor(processStartedAt(process.pid) ?? 0);
    expect(basename(folder)).toMatch(new RegExp(`^incident-sync-run-${process.pid}-${started}-`));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(removeDeadRunFolders(dir)).toEqual([]);
  });

  it("removes the folder of a run whose pid now belongs to a process that started after it (issue 36)", () => {
    dir = mkdtempSync(join(tmpdir(), "incident-sync-test-folders-"));
    const started = processStartedAt(process.pid) ?? 0;
    const reused = join(dir, `incident-sync-run-${process.pid}-${started - 3_600_000}-AbC123`);
    mkdirSync(reused);
    expect(removeDeadRunFolders(dir)).toEqual([reused]);
  });
});
