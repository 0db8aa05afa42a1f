import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEmulator, type RunningEmulator, startEmulator } from "../../src/emulator";
import { ADMIN, call, incidentBody, NOW, service } from "./helpers";

let running: RunningEmulator | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const auth = { authorization: "Bearer demo-key" };

async function setFaults(faults: object) {
  const response = await fetch(`${running!.url}/_control/faults`, {
    method: "PUT",
    headers: { authorization: `Bearer ${running!.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify(faults),
  });
  expect(response.status).toBe(200);
}

describe("startEmulator", () => {
  it("listens on a free loopback port and reports the demo account", async () => {
    running = await startEmulator({ port: 0 });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.demo).toEqual({ apiKey: "demo-key", accountId: "acct-demo" });
    const response = await fetch(`${running.url}/v1/error-groups/checks/chk-api`, {
      headers: auth,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("answers 413 over HTTP for a body over 1 MiB", async () => {
    running = await startEmulator({ port: 0 });
    const response = await fetch(`${running.url}/v1/status-pages/incidents/inc-api-errors`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ ...incidentBody, name: "x".repeat(1024 * 1024 + 1) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ statusCode: 413, error: "Payload Too Large" });
  });
});

describe("faults", () => {
  it("answers every nth request 429 with Retry-After", async () => {
    running = await startEmulator({ port: 0, faults: { rateLimitEvery: 3, retryAfterSeconds: 7 } });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${running.url}/v1/error-groups/checks/chk-api`, {
        headers: auth,
      });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get("retry-after");
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    expect(retryAfter).toBe("7");
  });

  it("answers a burst of k 429s at the end of every n requests", async () => {
    const emulator = createEmulator({
      seed: "demo",
      faults: { rateLimitEvery: 4, rateLimitBurst: 2, retryAfterSeconds: 3 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await emulator.app.request("/v1/error-groups/checks/chk-api", {
        headers: auth,
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get("retry-after")).toBe("3");
        expect((await response.json()) as unknown).toMatchObject({
          message:
            "rate limit exceeded (fault injection: the last 2 of every 4 requests); retry after 3 s",
        });
      }
    }
    expect(statuses).toEqual([200, 200, 429, 429, 200, 200, 429, 429]);
    emulator.close();
  });

  it("refuses a burst longer than the cycle it ends", async () => {
    const emulator = createEmulator({ seed: "demo", adminToken: ADMIN });
    const refused = await call(emulator.app, "PUT", "/_control/faults", {
      key: ADMIN,
      body: { rateLimitEvery: 3, rateLimitBurst: 5 },
    });
    expect(refused.status).toBe(400);
    expect((refused.json as { message: string }).message).toMatchInlineSnapshot(
      `"invalid body: rateLimitBurst: must be at most rateLimitEvery: a burst is the end of every rateLimitEvery requests"`,
    );
    emulator.close();
  });

  it("answers 503 at the fail rate and leaves the control API alone", async () => {
    running = await startEmulator({ port: 0 });
    await setFaults({ failRate: 1 });
    const response = await fetch(`${running.url}/v1/error-groups/checks/chk-api`, {
      headers: auth,
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ statusCode: 503, error: "Service Unavailable" });
    await setFaults({});
    const healed = await fetch(`${running.url}/v1/error-groups/checks/chk-api`, { headers: auth });
    expect(healed.status).toBe(200);
  });

  it("resets connections at the reset rate", async () => {
    running = await startEmulator({ port: 0, faults: { resetRate: 1 } });
    await expect(
      fetch(`${running.url}/v1/error-groups/checks/chk-api`, { headers: auth }),
    ).rejects.toThrow();
    const openapi = await fetch(`${running.url}/openapi.json`);
    expect(openapi.status).toBe(200);
  });

  it("rejects the in-process request of a reset connection, like a failed fetch", async () => {
    const emulator = createEmulator({ seed: "demo", faults: { resetRate: 1 } });
    await expect(
      emulator.app.request("/v1/error-groups/checks/chk-api", { headers: auth }),
    ).rejects.toMatchObject({ code: "ECONNRESET" });
    emulator.close();
  });

  it("adds fixed latency", async () => {
    running = await startEmulator({ port: 0, faults: { latencyMs: 150 } });
    const started = performance.now();
    const response = await fetch(`${running.url}/v1/error-groups/checks/chk-api`, {
      headers: auth,
    });
    await response.arrayBuffer();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe("shutdown", () => {
  it("closes the database only after the requests still being handled have finished", async () => {
    const internalErrors: unknown[] = [];
    running = await startEmulator({
      port: 0,
      faults: { latencyMs: 200 },
      onInternalError: (error) => internalErrors.push(error),
    });
    const client = new AbortController();
    const request = fetch(`${running.url}/v1/error-groups/checks/chk-api`, {
      headers: auth,
      signal: client.signal,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.abort();
    await request;
    await running.close();
    // Give a handler that outlived close() the time to reach the database.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(internalErrors).toEqual([]);
  });
});

describe("persistence", () => {
  it("keeps writes across a restart and does not apply the seed twice", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "emulator-")), "data.db");
    // The status change posts an update, which must be kept across the restart too.
    const options = { dataFile, seed: "demo", adminToken: ADMIN, now: () => NOW } as const;
    const first = createEmulator({ ...options, putStatus: "posts-update" });
    const put = await call(first.app, "PUT", "/v1/status-pages/incidents/inc-checkout-latency", {
      body: {
        ...incidentBody,
        name: "Renamed before restart",
        services: [service("svc-checkout")],
        lastUpdateStatus: "MONITORING",
      },
    });
    expect(put.status).toBe(200);
    first.control.recordHeartbeatPing("acct-demo", "hb-billing-sync", { ok: false });
    first.control.recordCheckResult("acct-demo", "chk-api", { error: "Brand new failure" });
    first.close();

    const second = createEmulator({ ...options, putStatus: "posts-update" });
    const updates = await call(
      second.app,
      "GET",
      "/v1/status-pages/incidents/inc-checkout-latency/incident-updates",
    );
    expect((updates.json as { description: string }[]).map((update) => update.description)).toEqual(
      [
        "Status changed to MONITORING",
        "Checkout p99 latency is above 4 s for EU customers. Investigating.",
      ],
    );
    const groups = await call(second.app, "GET", "/v1/error-groups/checks/chk-api?limit=100");
    expect(
      (groups.json as { rawErrorMessage: string }[]).map((group) => group.rawErrorMessage),
    ).toContain("Brand new failure");
    const events = await call(
      second.app,
      "GET",
      "/v1/checks/heartbeats/hb-billing-sync/events?limit=1",
    );
    expect(events.json).toMatchObject([
      { events: [{ state: "FAILING", timestamp: NOW.toISOString() }] },
    ]);
    second.close();
  });
});
