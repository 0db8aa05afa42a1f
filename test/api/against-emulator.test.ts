import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type ApiError,
  createClient,
  ForbiddenError,
  type MonitoringClient,
  NotFoundError,
  UnauthorizedError,
} from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";

/**
 * The client against the real emulator over HTTP: the contract both sides were built from.
 * Fault cases the emulator cannot produce on cue live in the other files, on a bare server.
 */

const KEY = "client-test-key";
const ACCOUNT = "acct-client";
const T0 = Date.parse("2026-05-01T00:00:00.000Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

// 40 pings alternating ok/failed, three per instant: every ping is a state change, so 40
// events where each instant holds three, and page edges (every 10) fall inside an instant.
const pings = Array.from({ length: 40 }, (_, k) => ({
  at: at(Math.floor(k / 3)),
  ok: k % 2 === 0,
}));

let running: RunningEmulator;
let client: MonitoringClient;

beforeAll(async () => {
  running = await startEmulator({
    seed: {
      accounts: [
        {
          id: ACCOUNT,
          apiKeys: [KEY],
          services: [{ id: "svc-api", name: "Public API" }],
          incidents: [
            { id: "inc-client-1", name: "Slow", severity: "MINOR", services: ["svc-api"] },
          ],
          heartbeats: [{ checkId: "hb-nightly", pings }],
          generatedErrorGroups: [{ checkId: "chk-busy", count: 2_500 }],
        },
        { id: "acct-other", apiKeys: ["other-key"] },
      ],
    },
  });
  client = createClient({ baseUrl: running.url, apiKey: KEY, accountId: ACCOUNT });
});
afterAll(() => running?.close());

describe("the client against the emulator", () => {
  test("updates an existing incident and reads its updates back", async () => {
    const incident = await client.incidents.update("inc-client-1", {
      name: "Checkout is slow",
      severity: "MAJOR",
      services: [{ id: "svc-api", name: "Public API", accountId: ACCOUNT }],
      lastUpdateStatus: "INVESTIGATING",
    });
    expect(incident).toMatchObject({
      id: "inc-client-1",
      name: "Checkout is slow",
      severity: "MAJOR",
      lastUpdateStatus: "INVESTIGATING",
    });
    running.emulator.control.appendIncidentUpdate(ACCOUNT, "inc-client-1", {
      description: "Rolling back.",
      status: "IDENTIFIED",
    });
    const updates = await client.incidents.listUpdates("inc-client-1");
    expect(updates.map((u) => u.description)).toContain("Rolling back.");
  });

  test("walks 2,500 error groups in pages of 100, each exactly once", async () => {
    const pages: number[] = [];
    const ids = new Set<string>();
    let count = 0;
    for await (const group of client.errorGroups.allForCheck("chk-busy", {
      onPage: (page) => pages.push(page),
    })) {
      ids.add(group.id);
      count++;
    }
    expect(count).toBe(2_500);
    expect(ids.size).toBe(2_500);
    expect(pages).toHaveLength(26);
    const first = await client.errorGroups.get([...ids][0]!);
    expect(first.checkId).toBe("chk-busy");
  });

  test("walks heartbeat events past the 10-event cap with ties at page edges, each once", async () => {
    const result = await client.heartbeats.eventsBetween("hb-nightly", at(-60), at(60));
    expect(result.events).toHaveLength(40);
    expect(new Set(result.events.map((e) => e.id)).size).toBe(40);
    const times = result.events.map((e) => Date.parse(e.timestamp!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(result.stats).toBeDefined();
  });

  test("a missing incident is a NotFoundError naming the request", async () => {
    const error = await client.incidents.listUpdates("inc-nope").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as ApiError).message).toMatch(
      /^GET \/v1\/status-pages\/incidents\/inc-nope\/incident-updates failed: 404 Not Found: .+/,
    );
  });

  test("a wrong key is a 401 and a foreign account a 403, neither showing the key", async () => {
    const wrongKey = createClient({ baseUrl: running.url, apiKey: "not-a-key" });
    const unauthorized = await wrongKey.errorGroups.get("x").catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect(String((unauthorized as Error).message)).not.toContain("not-a-key");

    const foreign = createClient({ baseUrl: running.url, apiKey: KEY, accountId: "acct-other" });
    const forbidden = await foreign.errorGroups.get("x").catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(ForbiddenError);
    expect(String((forbidden as Error).message)).not.toContain(KEY);
  });
});
