import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli";
import { incidentRows } from "./support/emulator-rows";
import {
  type InterruptedStack,
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleId,
  startInterruptedStack,
} from "./support/interrupted-stack";

const timeout = 300_000;
const INCIDENTS = 3;

/**
 * A lock left on another machine or by a run still going, a mistyped stack, and the
 * passphrase from a file. The kills of a run (kill -9 of its tree or of the host alone,
 * SIGTERM) are `npm run reliability`'s (test/reliability/interruptions.test.ts), with its loop
 * of 20 kills at random points (kill-loop.test.ts).
 */
describe("locks and secrets of incident-sync up", () => {
  let stack: InterruptedStack;

  beforeAll(async () => {
    stack = await startInterruptedStack("interrupt", INCIDENTS);
  }, timeout);

  afterAll(async () => {
    await stack?.close();
  });

  /** Writes a lock file into the stack's lock directory, as the Pulumi CLI would. */
  const plantLock = (
    file: string,
    lock: { pid: number; username: string; hostname: string; timestamp: string },
  ) => {
    const locks = join(
      stack.state,
      ".pulumi",
      "locks",
      "organization",
      "incident-sync-scale",
      "chaos",
    );
    mkdirSync(locks, { recursive: true });
    writeFileSync(join(locks, file), JSON.stringify(lock));
  };

  it(
    "names the incident-sync command that clears a lock held on another machine, and cancel clears it",
    async () => {
      plantLock("lost-runner.json", {
        pid: 4242,
        username: "runner",
        hostname: `not-${hostname()}`,
        timestamp: "2026-11-23T08:00:00Z",
      });
      const locked = await stack.up();
      expect(locked.exitCode).toBe(1);
      expect(
        locked.stderr.replace(hostname(), "<host>").replace(stack.state, "<state>"),
      ).toMatchInlineSnapshot(`
        "incident-sync up: Stack chaos is locked by pid 4242 of runner@not-<host> since 2026-11-23T08:00:00Z: another run is in progress, or one was lost on another machine. When no run is in progress, clear the lock with \`incident-sync cancel --stack chaos --state <state>\` (for npm start's stack: \`npm start -- --cancel\`).
        "
      `);
      const cancel = await runCli(
        ["cancel", "--project", stack.project, "--stack", "chaos", "--state", stack.state],
        stack.project,
        stack.env(),
      );
      expect(cancel.exitCode).toBe(0);
      expect(cancel.stdout.replace(hostname(), "<host>")).toMatchInlineSnapshot(`
        "Cleared the lock of stack chaos held by pid 4242 of runner@not-<host> since 2026-11-23T08:00:00Z, on another machine, where whether it still runs cannot be told from here.
        "
      `);
      expect((await stack.up()).exitCode).toBe(0);
    },
    timeout,
  );

  it(
    "cancel keeps the lock of a run still going on this machine unless --force is given",
    async () => {
      // This test's own process: alive, on this machine, and started before it took the lock.
      const since = new Date().toISOString();
      plantLock("running.json", {
        pid: process.pid,
        username: "runner",
        hostname: hostname(),
        timestamp: since,
      });
      const cancel = (...extra: string[]) =>
        runCli(
          [
            "cancel",
            "--project",
            stack.project,
            "--stack",
            "chaos",
            "--state",
            stack.state,
            ...extra,
          ],
          stack.project,
          stack.env(),
        );
      const refused = await cancel();
      expect(refused.exitCode).toBe(1);
      expect(
        refused.stderr
          .replace(hostname(), "<host>")
          .replace(since, "<since>")
          .replaceAll(String(process.pid), "<pid>"),
      ).toMatchInlineSnapshot(`
        "incident-sync cancel: Stack chaos is locked by pid <pid> of runner@<host> since <since>, a run still going on this machine; the lock stays. Wait for it, or stop it with \`kill -INT <pid>\` (it finishes the steps in flight, writes the state and releases the lock). --force clears the lock anyway, and the next run then applies alongside it.
        "
      `);
      expect(stack.locks()).toEqual(["running.json"]);
      const forced = await cancel("--force");
      expect(forced.exitCode).toBe(0);
      expect(
        forced.stdout
          .replace(hostname(), "<host>")
          .replace(since, "<since>")
          .replaceAll(String(process.pid), "<pid>"),
      ).toMatchInlineSnapshot(`
        "Cleared the lock of stack chaos held by pid <pid> of runner@<host> since <since>, which still runs (--force).
        "
      `);
      expect(stack.locks()).toEqual([]);
    },
    timeout,
  );

  it(
    "cancel of a mistyped stack says so and creates nothing",
    async () => {
      const stacks = () =>
        readdirOrEmpty(join(stack.state, ".pulumi", "stacks", "incident-sync-scale"));
      const before = stacks();
      const cancel = await runCli(
        ["cancel", "--project", stack.project, "--stack", "chaso", "--state", stack.state],
        stack.project,
        stack.env(),
      );
      expect(cancel.exitCode).toBe(1);
      expect(cancel.stderr).toContain("chaso");
      expect(stacks()).toEqual(before);
    },
    timeout,
  );

  it(
    "reads the passphrase from PULUMI_CONFIG_PASSPHRASE_FILE, and never puts the API key in an argument or the environment of any pulumi command",
    async () => {
      const file = join(stack.sandbox.root, "passphrase");
      writeFileSync(file, stack.passphrase, { mode: 0o600 });
      const wrapper = join(stack.sandbox.root, "wrapper");
      mkdirSync(wrapper);
      const log = join(stack.sandbox.root, "pulumi-calls.log");
      writeFileSync(
        join(wrapper, "pulumi"),
        `#!/bin/sh\n{ printf 'ARGS'; for a in "$@"; do printf ' %s' "$a"; done; printf '\\n'; env | sed 's/^/ENV /'; } >> ${JSON.stringify(log)}\nexec ${JSON.stringify(stack.engine.pulumi)} "$@"\n`,
      );
      chmodSync(join(wrapper, "pulumi"), 0o755);
      stack.declare(103, 2);
      const { PULUMI_CONFIG_PASSPHRASE: _inline, ...withoutInline } = stack.env();
      const run = await stack.up({
        ...withoutInline,
        PULUMI_CONFIG_PASSPHRASE_FILE: file,
        INCIDENT_SYNC_PULUMI_BIN: wrapper,
      });
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(incidentRows(stack.sandbox.db, SCALE_ACCOUNT).get(scaleId(0))?.name).toContain(
        "version 103",
      );
      const calls = readFileSync(log, "utf8");
      expect(calls).toContain("ARGS config set --secret");
      expect(calls).toContain("ARGS up --yes --skip-preview");
      expect(calls).toContain(`ENV PULUMI_CONFIG_PASSPHRASE_FILE=${file}`);
      expect(calls).not.toContain(SCALE_API_KEY);
    },
    timeout,
  );
});

function readdirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
