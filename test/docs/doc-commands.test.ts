import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { CLI } from "../cli/run-cli";
import { sh } from "../engine/support/shell";
import { type DocBlock, docBlocksOf } from "../support/doc-blocks";
import { gitIdentity } from "../support/git-env";

const ROOT = join(__dirname, "..", "..");

/**
 * The docs' `<!-- test: run -->` blocks, run line by line as a user would: `incident-sync` on
 * PATH (this checkout's compiled CLI), in a clone of this repository's definitions whose
 * `origin` holds `main`, against the emulator with its demo data. A line passes when it exits
 * 0, or 2 where the command says so of changes or drift found, or 4 for a drift that could not
 * check a new incident (these definitions open one, and no stack of theirs has run here).
 */
describe("the docs' commands, run", () => {
  let root: string;
  let repo: string;
  let emulator: RunningEmulator;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "incident-sync-doc-commands-"));
    repo = join(root, "repo");
    mkdirSync(repo);
    cpSync(join(ROOT, "incidents"), join(repo, "incidents"), { recursive: true });
    const bin = join(root, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "incident-sync"),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`,
    );
    chmodSync(join(bin, "incident-sync"), 0o755);
    emulator = await startEmulator({ port: 0, seed: "demo" });
    env = {
      PATH: [bin, dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
      HOME: root,
      MONITORING_API_URL: emulator.url,
      MONITORING_ACCOUNT_ID: emulator.demo.accountId,
      MONITORING_API_KEY: emulator.demo.apiKey,
      ...gitIdentity("Docs"),
    };
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo, env, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "definitions");
    execFileSync("git", ["init", "-q", "--bare", join(root, "origin.git")], { stdio: "ignore" });
    git("remote", "add", "origin", join(root, "origin.git"));
    git("push", "-q", "origin", "main");
  });

  afterAll(async () => {
    await emulator?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const blocks: DocBlock[] = docBlocksOf("run");

  it("has blocks to run", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} runs line by line`, async () => {
      for (const line of block.commands) {
        const run = await sh(line, repo, env);
        const changesFound =
          (/ (plan|drift)\b/.test(line) && run.code === 2) ||
          (/ drift\b/.test(line) && run.code === 4 && /could not be checked/.test(run.output));
        expect(run.code === 0 || changesFound, `${line}\n${run.output}`).toBe(true);
        const out = /--out (\S+)/.exec(line)?.[1] ?? /> (\S+)$/.exec(line)?.[1];
        if (out !== undefined) expect(existsSync(join(repo, out)), `${line}: ${out}`).toBe(true);
      }
    });
  }
});
