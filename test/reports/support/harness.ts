import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { CommandIo } from "../../../src/cli/io";
import { type RunningEmulator, type SeedFile, startEmulator } from "../../../src/emulator";
import { SETTINGS } from "../../../src/settings";

export const ACCOUNT = "acct-reports";
export const API_KEY = "reports-key-0123456789";

/** An emulator over real HTTP with one account, its key and whatever the test seeds. */
export async function startSeededEmulator(
  account: Partial<NonNullable<SeedFile["accounts"]>[number]> = {},
): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    seed: {
      accounts: [
        {
          id: ACCOUNT,
          apiKeys: [API_KEY],
          services: [{ id: "svc-api", name: "Public API" }],
          ...account,
        },
      ],
    },
  });
}

/**
 * The environment of a command against `running`. The rate limit is lifted: a file's commands
 * share one budget per emulator, and the reports, not the budget (test/api/rate-budget.test.ts),
 * are under test.
 */
export function apiEnv(running: RunningEmulator): NodeJS.ProcessEnv {
  return {
    MONITORING_API_URL: running.url,
    MONITORING_API_KEY: API_KEY,
    MONITORING_ACCOUNT_ID: ACCOUNT,
    MONITORING_RATE_LIMIT: String(SETTINGS.rateLimit.max),
  };
}

/** Captures what a command writes, as the in-process form of running it. */
export function captureIo(env: NodeJS.ProcessEnv, cwd = process.cwd()) {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
  const io: CommandIo = { stdout: sink(out), stderr: sink(err), env, cwd };
  return { io, stdout: () => out.join(""), stderr: () => err.join("") };
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `incident-sync-${prefix}-`));
}

/** Posts to the emulator's control API, as a person acting in the service's UI would. */
export async function control(
  running: RunningEmulator,
  route: string,
  body: unknown,
): Promise<unknown> {
  const response = await fetch(`${running.url}/_control${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${running.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`control ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}
