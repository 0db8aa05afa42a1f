import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drip, sendJson, startTestServer, type TestServer } from "../support/http-server";
import { runCli } from "./run-cli";

/**
 * Issue 36: against a server that answers 200 and then sends a byte every 2 s, `report errors`
 * was still running at 150 s, and `report heartbeats`, `report incident` and `drift` at 90 s;
 * a 429 storm held a run for 16 minutes. Every command that reads the API now ends by its
 * deadline (`--deadline`, `INCIDENT_SYNC_DEADLINE`) with exit 124 and says so.
 */
const KEY = "deadline-key-0123456789";
const DEADLINE_S = 3;

let dripping: TestServer;
let throttling: TestServer;
let dir: string;

beforeAll(async () => {
  dripping = await startTestServer(drip(2_000));
  throttling = await startTestServer((_request, response) =>
    sendJson(
      response,
      429,
      { statusCode: 429, error: "Too Many Requests", message: "slow down" },
      { "retry-after": "1" },
    ),
  );
  dir = await mkdtemp(path.join(tmpdir(), "deadline-"));
  await mkdir(path.join(dir, "incidents"));
  await writeFile(
    path.join(dir, "incidents", "a.yaml"),
    "id: inc-a\nname: Checkout is slow\nseverity: MAJOR\nstatus: INVESTIGATING\nservices:\n  - id: svc-a\n    name: Checkout\n",
  );
});

afterAll(async () => {
  await dripping?.close();
  await throttling?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const COMMANDS: [string, string[]][] = [
  ["report errors", ["report", "errors", "--check", "chk-a", "--format", "json"]],
  ["report heartbeats", ["report", "heartbeats", "--check", "hb-a", "--format", "json"]],
  ["report incident", ["report", "incident", "inc-a", "--format", "json"]],
  ["drift", ["drift", "incidents", "--format", "json"]],
];

// Concurrent: each waits out its deadline, and none needs the machine to itself.
describe("a command against a server that drips or throttles without end", () => {
  it.concurrent.for(COMMANDS)(
    "%s ends at its deadline with exit 124, saying so",
    { timeout: 20_000 },
    async ([name, args], { expect }) => {
      const started = performance.now();
      const run = await runCli([...args, "--deadline", `${DEADLINE_S}s`], dir, {
        MONITORING_API_URL: dripping.url,
        MONITORING_API_KEY: KEY,
        MONITORING_ACCOUNT_ID: "acct_1",
      });
      const elapsed = performance.now() - started;
      expect(run.exitCode, run.stderr).toBe(124);
      expect(elapsed).toBeLessThan(DEADLINE_S * 1_000 + 4_000);
      expect(run.stderr).toContain(`incident-sync ${name}: `);
      expect(run.stderr).toContain("stopped at the deadline");
      expect(run.stderr).toContain("give it longer with --deadline or INCIDENT_SYNC_DEADLINE");
      // A whole error document on stdout, never half a report.
      expect(JSON.parse(run.stdout)).toMatchObject({ error: { type: "DeadlineError" } });
    },
  );

  it.concurrent("ends a command that a server throttles without end, from INCIDENT_SYNC_DEADLINE", async ({
    expect,
  }) => {
    const started = performance.now();
    const run = await runCli(["report", "incident", "inc-a"], dir, {
      MONITORING_API_URL: throttling.url,
      MONITORING_API_KEY: KEY,
      MONITORING_ACCOUNT_ID: "acct_1",
      INCIDENT_SYNC_DEADLINE: `${DEADLINE_S}s`,
    });
    expect(run.exitCode, run.stderr).toBe(124);
    expect(performance.now() - started).toBeLessThan(DEADLINE_S * 1_000 + 4_000);
  }, 20_000);
});

describe("the deadline", () => {
  it("refuses a deadline it cannot read, naming the setting and what it takes", async () => {
    const run = await runCli(["drift", "incidents", "--deadline", "soon"], dir, {
      MONITORING_API_URL: dripping.url,
      MONITORING_API_KEY: KEY,
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatchInlineSnapshot(`
      "incident-sync drift: --deadline must be a duration in seconds, minutes or hours (90s, 20m, 1h) from 1s to 24h, not "soon".
      "
    `);
  });
});
