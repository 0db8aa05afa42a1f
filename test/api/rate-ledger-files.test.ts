import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createClient } from "../../src/api";
import {
  clearStale,
  ledgerLock,
  STALE_LOCK_MS,
  staleHolders,
} from "../../src/api/client/ledger-lock";
import { parseLedger } from "../../src/api/client/rate-ledger";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

/**
 * Issue 45: the shared rate ledger must never stall or hang its own user, whatever is found
 * in its folder: a time far ahead, a FIFO, a link, a folder others may enter, a lock left by
 * a process that died. Each runtime folder here is new, so each test makes its own ledger.
 */

let server: TestServer | undefined;
let runtime: string;
let warnings: string[];
const savedRuntime = process.env.XDG_RUNTIME_DIR;

beforeEach(() => {
  runtime = mkdtempSync(join(tmpdir(), "incident-sync-ledger-"));
  chmodSync(runtime, 0o700);
  process.env.XDG_RUNTIME_DIR = runtime;
  warnings = [];
  vi.spyOn(process, "emitWarning").mockImplementation((warning: string | Error) => {
    warnings.push(String(warning));
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  process.env.XDG_RUNTIME_DIR = savedRuntime;
  await server?.close();
  server = undefined;
  rmSync(runtime, { recursive: true, force: true });
});

const group = errorGroup("eg_1", "2026-05-01T00:00:00.000Z");
const ok = () => startTestServer((_request, response) => sendJson(response, 200, group));
const folder = () => join(runtime, "incident-sync", "rate-budget");
const client = (rateLimit = { limit: 600, intervalMs: 60_000 }) =>
  createClient({ baseUrl: server!.url, apiKey: API_KEY, rateLimit });

/** Sends one request and returns the ledger's file, as the first run of the key left it. */
async function firstLedger(): Promise<string> {
  await client().errorGroups.get("eg_1");
  const ledgers = readdirSync(folder()).filter((name) => name.endsWith(".window.json"));
  expect(ledgers).toHaveLength(1);
  return join(folder(), ledgers[0]!);
}

/** One request from a process of its own, which a blocking open cannot hang past its timeout. */
const ONE_REQUEST = `
  const { createClient } = require(${JSON.stringify(join(process.cwd(), "dist/src/api"))});
  createClient({ baseUrl: process.argv[1], apiKey: ${JSON.stringify(API_KEY)} })
    .errorGroups.get("eg_1")
    .then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });`;

function requestFromProcess(): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["-e", ONE_REQUEST, server!.url], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, XDG_RUNTIME_DIR: runtime },
      timeout: 10_000,
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

/** Times a call; fails the test (rather than hang it) past `withinMs`. */
async function timed(call: () => Promise<unknown>, withinMs: number): Promise<number> {
  const started = Date.now();
  await Promise.race([
    call(),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`still waiting after ${withinMs} ms`)), withinMs),
    ),
  ]);
  return Date.now() - started;
}

describe("times far ahead in the ledger", () => {
  test("a hold of 121 s is dropped at once, with a warning that says why", async () => {
    server = await ok();
    const ledger = await firstLedger();
    writeFileSync(
      ledger,
      JSON.stringify({ sends: [], holdUntil: Date.now() + 121_000, limits: [] }),
    );
    expect(await timed(() => client().errorGroups.get("eg_1"), 5_000)).toBeLessThan(2_000);
    expect(warnings.join("\n")).toMatch(
      /held every request for 121 s, longer than any wait a server may ask of this client \(60 s\): the clock was set back/,
    );
    expect(parseLedger(readFileSync(ledger, "utf8")).holdUntil).toBeLessThanOrEqual(Date.now());
  });
});

/** Why a client's first request failed: its error's message. */
async function refusal(): Promise<string> {
  try {
    await client().errorGroups.get("eg_1");
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("the request was sent");
}

describe("only a regular file of this user is read", () => {
  test("a FIFO as the ledger does not hang the client: the request is refused at once, naming it", async () => {
    server = await ok();
    const ledger = await firstLedger();
    rmSync(ledger);
    execFileSync("mkfifo", ["-m", "600", ledger]);
    const run = await requestFromProcess();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${ledger} is not a regular file (a FIFO). Remove it`);
  });

  test("a ledger that is a link is not followed, and nothing is sent", async () => {
    server = await ok();
    const ledger = await firstLedger();
    const elsewhere = join(runtime, "elsewhere.json");
    writeFileSync(elsewhere, "{}", { mode: 0o600 });
    rmSync(ledger);
    symlinkSync(elsewhere, ledger);
    expect(await refusal()).toContain(`${ledger} is a link. Remove it`);
    expect(readFileSync(elsewhere, "utf8")).toBe("{}");
  });

  test("a secret linked to /dev/zero is refused at once, not read for ever", async () => {
    server = await ok();
    mkdirSync(folder(), { recursive: true, mode: 0o700 });
    symlinkSync("/dev/zero", join(folder(), ".secret"));
    const run = await requestFromProcess();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(folder(), ".secret")} is a link`);
  });
});

describe("every folder on the way is checked", () => {
  test("a rate-budget folder that is a link is not followed, and nothing is written through it", async () => {
    server = await ok();
    const elsewhere = mkdtempSync(join(tmpdir(), "incident-sync-elsewhere-"));
    try {
      mkdirSync(join(runtime, "incident-sync"), { mode: 0o700 });
      symlinkSync(elsewhere, folder());
      expect(await refusal()).toContain(`${folder()} is not a folder (a link)`);
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test("a folder other users may enter is not used", async () => {
    server = await ok();
    mkdirSync(join(runtime, "incident-sync"), { mode: 0o700 });
    chmodSync(join(runtime, "incident-sync"), 0o755);
    expect(await refusal()).toContain("is open to other users (mode 755)");
    expect(readdirSync(join(runtime, "incident-sync"))).toEqual([]);
  });
});

describe("a lock left by a process that died", () => {
  const plantStale = (lock: string) => {
    mkdirSync(lock, { mode: 0o700 });
    const holder = join(lock, "4242.dead");
    writeFileSync(holder, "4242.dead");
    const old = new Date(Date.now() - 2 * STALE_LOCK_MS);
    utimesSync(holder, old, old);
  };

  test("is taken over by one waiter alone, however the two that saw it stale interleave", () => {
    const lock = join(runtime, "ledger.lock");
    plantStale(lock);
    const [a, b] = [ledgerLock(lock), ledgerLock(lock)];
    const seenByA = staleHolders(lock);
    const seenByB = staleHolders(lock);
    expect(seenByA).toEqual([join(lock, "4242.dead")]);
    expect(seenByB).toEqual(seenByA);
    clearStale(lock, seenByA as string[]);
    expect(a.tryAcquire()).toBe(true);
    // B acts on what it saw before A took the lock: A's lock must survive it.
    clearStale(lock, seenByB as string[]);
    expect(b.tryAcquire()).toBe(false);
    expect(a.held()).toBe(true);
    a.release();
    expect(b.tryAcquire()).toBe(true);
  });

  test("dated ahead (the clock set back after a crash) does not hold the budget", async () => {
    server = await ok();
    const ledger = await firstLedger();
    const lock = `${ledger}.lock`;
    mkdirSync(lock, { mode: 0o700 });
    writeFileSync(join(lock, "4242.dead"), "");
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(join(lock, "4242.dead"), ahead, ahead);
    expect(await timed(() => client().errorGroups.get("eg_1"), 5_000)).toBeLessThan(2_000);
  });
});

/** A process taking (and answering) `count` slots of a ledger with a limit too high to wait. */
const TAKER = `
  const { createRateBudget } = require(${JSON.stringify(join(process.cwd(), "dist/src/api/client/rate-budget"))});
  const budget = createRateBudget({
    limit: 1000000, intervalMs: 600000, shared: true, maxHoldMs: 1000, attemptMs: 60000,
    baseUrl: "http://127.0.0.1:1", apiKey: process.argv[1],
  });
  (async () => { for (let i = 0; i < Number(process.argv[2]); i++) await (await budget.take(undefined)).answered(); })()
    .then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });`;

describe("the lock between processes", () => {
  test("loses no send when four processes take slots of one ledger at once", async () => {
    const key = `lock-test-${Date.now()}`;
    const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
    const run = () =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ["-e", TAKER, key, "150"], {
          stdio: ["ignore", "inherit", "pipe"],
          env,
          timeout: 60_000,
        });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on("exit", (code) => resolve({ code, stderr }));
      });
    // No process fell back to a limit of its own, which would hide a lock that failed.
    expect(await Promise.all([run(), run(), run(), run()])).toEqual(
      Array.from({ length: 4 }, () => ({ code: 0, stderr: "" })),
    );
    const ledgers = readdirSync(folder()).filter((name) => name.endsWith(".window.json"));
    expect(ledgers).toHaveLength(1);
    const ledger = parseLedger(readFileSync(join(folder(), ledgers[0]!), "utf8"));
    expect(ledger.open).toEqual([]);
    expect(ledger.sends.reduce((sum, [, , count]) => sum + count, 0)).toBe(600);
  }, 90_000);
});
