import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  createClient,
  RateLimitError,
  ServerError,
  THROTTLED_RETRIES_MAX,
  writeOutcomeUnknown,
} from "../../src/api";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { sendError, sendJson, startTestServer, type TestServer } from "../support/http-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const group = errorGroup("eg_1", "2026-05-01T00:00:00.000Z");
const ok = () => startTestServer((_request, response) => sendJson(response, 200, group));

/** The most requests any window of `windowMs` holds, by the server's arrival times. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

/** A process sending 8 requests at 8 a second with the key; its exit code. */
const SEND_EIGHT = `
      const { createClient } = require(${JSON.stringify(join(process.cwd(), "dist/src/api"))});
      const client = createClient({
        baseUrl: process.argv[1],
        apiKey: ${JSON.stringify(API_KEY)},
        rateLimit: { limit: 8, intervalMs: 1000 },
      });
      Promise.all(Array.from({ length: 8 }, () => client.errorGroups.get("eg_1"))).then(
        () => process.exit(0),
        (error) => { console.error(error); process.exit(1); },
      );`;

function sendEight(url: string, env: NodeJS.ProcessEnv = process.env): Promise<number | null> {
  return new Promise((resolve) => {
    const started = spawn(process.execPath, ["-e", SEND_EIGHT, url], {
      stdio: "inherit",
      env,
      timeout: 12_000,
    });
    started.on("exit", resolve);
  });
}

describe("spending the window, then pacing", () => {
  test("a window's worth goes as fast as the server answers; only the next waits for the window", async () => {
    server = await ok();
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: { limit: 12, intervalMs: 1_000 },
      concurrency: 12,
    });
    await Promise.all(Array.from({ length: 14 }, () => client.errorGroups.get("eg_1")));
    const times = server.requests.map((r) => r.at).sort((x, y) => x - y);
    // The first twelve at once, not spread over the second; the thirteenth after the window.
    expect(times[11]! - times[0]!).toBeLessThan(300);
    expect(times[12]! - times[0]!).toBeGreaterThanOrEqual(1_000);
    expect(busiestWindow(times, 1_000)).toBeLessThanOrEqual(12);
  });

  test("the strictest limit of the clients sharing a key holds for all of them", async () => {
    server = await ok();
    const make = (limit: number) =>
      createClient({
        baseUrl: server!.url,
        apiKey: API_KEY,
        rateLimit: { limit, intervalMs: 1_000 },
        concurrency: 10,
      });
    const [strict, lax] = [make(4), make(100)];
    await strict.errorGroups.get("eg_1");
    await Promise.all(
      [strict, lax].flatMap((client) =>
        Array.from({ length: 4 }, () => client.errorGroups.get("eg_1")),
      ),
    );
    expect(server.requests).toHaveLength(9);
    // Each on its own limit, the lax client would have sent its four at once.
    expect(
      busiestWindow(
        server.requests.map((r) => r.at),
        980,
      ),
    ).toBeLessThanOrEqual(4);
  });
});

describe("one budget for every client with the key", () => {
  test("two clients of one key and URL keep to the limit together", async () => {
    server = await ok();
    const make = () =>
      createClient({
        baseUrl: server!.url,
        apiKey: API_KEY,
        rateLimit: { limit: 10, intervalMs: 500 },
        concurrency: 10,
      });
    const [a, b] = [make(), make()];
    await Promise.all(
      [a, b].flatMap((client) => Array.from({ length: 8 }, () => client.errorGroups.get("eg_1"))),
    );
    expect(server.requests).toHaveLength(16);
    expect(
      busiestWindow(
        server.requests.map((r) => r.at),
        480,
      ),
    ).toBeLessThanOrEqual(10);
  });

  test("shared: false keeps a client's budget to itself", async () => {
    server = await ok();
    const make = () =>
      createClient({
        baseUrl: server!.url,
        apiKey: API_KEY,
        rateLimit: { limit: 20, intervalMs: 1_000, shared: false },
      });
    const [a, b] = [make(), make()];
    // Each has a burst of two of its own: four together.
    await Promise.all([a, a, b, b].map((client) => client.errorGroups.get("eg_1")));
    const times = server.requests.map((r) => r.at).sort((x, y) => x - y);
    expect(times[3]! - times[0]!).toBeLessThan(40);
  });

  test("processes sending with the same key share it too", async () => {
    server = await ok();
    const child = () => sendEight(server!.url);
    expect(await Promise.all([child(), child()])).toEqual([0, 0]);
    expect(server.requests).toHaveLength(16);
    expect(
      busiestWindow(
        server.requests.map((r) => r.at),
        970,
      ),
    ).toBeLessThanOrEqual(8);
  }, 15_000);
});

describe("a 429 without Retry-After", () => {
  test("is waited out in seconds sized to the rate limit's window, with jitter", async () => {
    let n = 0;
    server = await startTestServer((_request, response) => {
      if (n++ === 0) sendError(response, 429, "slow down");
      else sendJson(response, 200, group);
    });
    // A window of 2 s: the first wait is between half a second and a second.
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: { limit: 100, intervalMs: 2_000 },
    });
    expect(await client.errorGroups.get("eg_1")).toEqual(group);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(490);
    expect(second!.at - first!.at).toBeLessThan(1_100);
  });

  test("holds every client sharing the budget until the wait is over", async () => {
    let n = 0;
    server = await startTestServer((_request, response) => {
      if (n++ === 0) sendError(response, 429, "slow down");
      else sendJson(response, 200, group);
    });
    const make = () =>
      createClient({
        baseUrl: server!.url,
        apiKey: API_KEY,
        rateLimit: { limit: 100, intervalMs: 2_000 },
      });
    const [a, b] = [make(), make()];
    const first = a.errorGroups.get("eg_1");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([first, b.errorGroups.get("eg_1")]);
    const [throttled, ...after] = server.requests.map((r) => r.at);
    expect(after).toHaveLength(2);
    for (const at of after) expect(at - throttled!).toBeGreaterThanOrEqual(490);
  });

  test("a storm ends after twice the window with an error naming the client's limit", async () => {
    server = await startTestServer((_request, response) => sendError(response, 429, "slow down"));
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: { limit: 30, intervalMs: 1_000 },
    });
    const started = Date.now();
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(took).toBeLessThan(2_200);
    expect(server.requests.length).toBeLessThan(THROTTLED_RETRIES_MAX);
    expect((error as Error).message.replace(/for \d+ s/, "for <n> s")).toMatchInlineSnapshot(
      `"GET /v1/error-groups/eg_1 failed: 429 Too Many Requests: slow down. The service is rate limiting this key (it kept answering 429 for <n> s, past 2 s, while this client sent at most 30 requests per 1 s: another client may be sending with this key, or the service allows fewer); lower the client's rateLimit or try again later."`,
    );
  });
});

describe("writes that are not idempotent", () => {
  test("a POST is never sent again by the client: a 429 holds everyone sharing the budget, then reaches its caller, who reads before sending again", async () => {
    let n = 0;
    server = await startTestServer((request, response) => {
      n++;
      if (n === 1) sendError(response, 429, "slow down", { "retry-after": "1" });
      else if (n === 2) sendJson(response, 200, { id: "upd_1", description: "Fixed." });
      else sendError(response, 503, "down");
      void request;
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const update = { description: "Fixed.", status: "RESOLVED" as const };
    const throttled = await client.incidents.postUpdate("inc_1", update).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
    expect((throttled as Error).message).toMatchInlineSnapshot(
      `"POST /v1/status-pages/incidents/inc_1/incident-updates failed: 429 Too Many Requests: slow down. The service is rate limiting this key (a POST answered 429 is not sent again by the client: its caller reads whether it was made first); lower the client's rateLimit or try again later."`,
    );
    // The next request of any call waits out the 429's Retry-After.
    const started = Date.now();
    expect(await client.incidents.postUpdate("inc_1", update)).toMatchObject({ id: "upd_1" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const failed = await client.incidents.postUpdate("inc_1", update).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ServerError);
    expect(writeOutcomeUnknown(failed)).toBe(true);
    expect(server.requests).toHaveLength(3);
  });
});
