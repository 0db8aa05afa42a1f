import { afterEach, describe, expect, test } from "vitest";
import {
  createClient,
  NetworkError,
  RateLimitError,
  type RetryEvent,
  type RetryOptions,
  ServerError,
  THROTTLED_RETRIES_MAX,
  TimeoutError,
} from "../../src/api";
import { SETTINGS } from "../../src/settings";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import {
  sendError,
  sendJson,
  sleep,
  startTestServer,
  type TestServer,
} from "../support/http-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const group = errorGroup("eg_1", "2026-05-01T00:00:00.000Z");
/** Backoff small enough to keep tests fast; Retry-After waits are the server's to choose. */
const fast = { delay: () => 5, backoffLimit: 20 };

/** Answers the n-th request (from 0) with `fail(n)` until it returns undefined, then 200. */
/** A client of `target` with quick retries (`retry`), and the retries it reports. */
function observed(target: Pick<TestServer, "url">, retry: RetryOptions = fast) {
  const retries: RetryEvent[] = [];
  const client = createClient({
    baseUrl: target.url,
    apiKey: API_KEY,
    retry,
    onRetry: (event) => retries.push(event),
  });
  return { client, retries };
}

const failFirst = (fail: (n: number) => [number, Record<string, string>?] | undefined) => {
  let n = 0;
  return startTestServer((_request, response) => {
    const failure = fail(n++);
    if (failure) sendError(response, failure[0], "try later", failure[1]);
    else sendJson(response, 200, group);
  });
};

describe("retries", () => {
  test("the retry budget is shared by every call of a client: once used up, a call fails at its next error", async () => {
    server = await failFirst(() => [503]);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { delay: () => 40, limit: 10, budgetMs: 100 },
    });
    const first = await client.errorGroups.get("eg_1").catch((error: unknown) => error);
    expect(first).toBeInstanceOf(ServerError);
    const spent = server.requests.length;
    expect(spent).toBeGreaterThan(1);
    expect(spent).toBeLessThan(11);
    const second = await client.errorGroups.get("eg_1").catch((error: unknown) => error);
    expect(second).toBeInstanceOf(ServerError);
    expect((second as ServerError).attempts).toBe(1);
    expect(server.requests.length).toBe(spent + 1);
  });

  test("a 503 is retried and the call succeeds", async () => {
    server = await failFirst((n) => (n < 2 ? [503] : undefined));
    const { client, retries } = observed(server);
    expect(await client.errorGroups.get("eg_1")).toEqual(group);
    expect(server.requests).toHaveLength(3);
    expect(retries).toEqual([
      {
        operation: "errorGroups.get",
        method: "GET",
        path: "/v1/error-groups/eg_1",
        retry: 1,
        reason: "503 Service Unavailable",
      },
      {
        operation: "errorGroups.get",
        method: "GET",
        path: "/v1/error-groups/eg_1",
        retry: 2,
        reason: "503 Service Unavailable",
      },
    ]);
    expect(JSON.stringify(retries)).not.toContain(API_KEY);
  });

  test("502 and 504 are retried, and so is the PUT, which is idempotent", async () => {
    server = await failFirst((n) => (n === 0 ? [502] : n === 1 ? [504] : undefined));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: fast });
    await client.incidents
      .update("inc_1", {
        name: "n",
        severity: "MINOR",
        services: [{ id: "s", name: "S", accountId: "acc_1" }],
      })
      .catch(() => undefined);
    expect(server.requests.map((r) => r.method)).toEqual(["PUT", "PUT", "PUT"]);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
  });

  test("a 500 and a 4xx are not retried", async () => {
    server = await failFirst((n) => (n === 0 ? [500] : n === 1 ? [404] : undefined));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: fast });
    await expect(client.errorGroups.get("eg_1")).rejects.toBeInstanceOf(ServerError);
    await expect(client.errorGroups.get("eg_1")).rejects.toMatchObject({ status: 404 });
    expect(server.requests).toHaveLength(2);
  });

  test("attempts are bounded: limit 2 means three attempts, then the error says so", async () => {
    server = await failFirst(() => [503]);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { ...fast, limit: 2 },
    });
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    expect(server.requests).toHaveLength(3);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ attempts: 3, status: 503 });
    expect((error as Error).message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/eg_1 failed: 503 Service Unavailable: try later. The service failed (gave up after 3 attempts); try again later."`,
    );
  });

  test("429s are pacing, not failures: a burst longer than the limit is waited out, while 503s still stop at it", async () => {
    // Three 429s, then a 503, then success: four retries under a limit of 1.
    server = await failFirst((n) =>
      n < 3 ? [429, { "retry-after": "0" }] : n === 3 ? [503] : undefined,
    );
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { ...fast, limit: 1 },
    });
    expect(await client.errorGroups.get("eg_1")).toEqual(group);
    expect(server.requests).toHaveLength(5);

    await server.close();
    server = await failFirst((n) => (n < 3 ? [429, { "retry-after": "0" }] : [503]));
    const stopped = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { ...fast, limit: 1 },
    });
    const error = await stopped.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 503, attempts: 5 });
    expect(server.requests).toHaveLength(5);
  });

  test("a call throttled without end stops after THROTTLED_RETRIES_MAX retries", async () => {
    server = await failFirst(() => [429, { "retry-after": "0" }]);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { ...fast, backoffLimit: 1 },
      // Each 429 holds the budget; the count of retries, not the pace, is under test.
      rateLimit: { limit: SETTINGS.rateLimit.max, intervalMs: 60_000 },
    });
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(THROTTLED_RETRIES_MAX + 1);
  });

  test("clients told to retry after the same second come back spread out, not in one instant", async () => {
    server = await failFirst((n) => (n < 6 ? [429, { "retry-after": "1" }] : undefined));
    const clients = Array.from({ length: 6 }, () =>
      createClient({
        baseUrl: server!.url,
        apiKey: API_KEY,
        retry: { delay: () => 400 },
      }),
    );
    await Promise.all(clients.map((client) => client.errorGroups.get("eg_1")));
    const retried = server.requests.slice(6).map((request) => request.at);
    // Each waits the server's second plus up to 400 ms of its own: six draws all inside 20 ms
    // of each other would be a (20/400)^5 chance, so this fails only if the spread is gone.
    expect(Math.max(...retried) - Math.min(...retried)).toBeGreaterThan(20);
    expect(Math.min(...retried) - server.requests[0]!.at).toBeGreaterThanOrEqual(990);
  });

  test("a 429 with Retry-After in seconds waits that long, without jitter shortening it", async () => {
    server = await failFirst((n) => (n === 0 ? [429, { "retry-after": "1" }] : undefined));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: fast });
    expect(await client.errorGroups.get("eg_1")).toEqual(group);
    const [first, second] = server.requests;
    expect(server.requests).toHaveLength(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
  });

  test("a 429 with Retry-After as an HTTP date waits until that date", async () => {
    // HTTP dates have whole seconds: two seconds ahead is at least one full second away.
    let retryAt = 0;
    server = await failFirst((n) => {
      if (n > 0) return undefined;
      retryAt = Math.floor(Date.now() / 1000) * 1000 + 2000;
      return [429, { "retry-after": new Date(retryAt).toUTCString() }];
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: fast });
    await client.errorGroups.get("eg_1");
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
    expect(Date.now()).toBeGreaterThanOrEqual(retryAt - 10);
  });

  test("a Retry-After longer than maxRetryAfterMs fails at once with the wait on the error", async () => {
    server = await failFirst(() => [429, { "retry-after": "120" }]);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { ...fast, maxRetryAfterMs: 5_000 },
    });
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    expect(server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/eg_1 failed: 429 Too Many Requests: try later. The service is rate limiting this key (it asked to wait 120 s, more than maxRetryAfterMs 5000 ms); lower the client's rateLimit or try again later."`,
    );
  });

  test("a dropped connection is retried as a network error", async () => {
    let n = 0;
    server = await startTestServer((request, response) => {
      if (n++ === 0) {
        response.socket?.destroy();
        return;
      }
      sendJson(response, 200, group);
      void request;
    });
    const { client, retries } = observed(server);
    expect(await client.errorGroups.get("eg_1")).toEqual(group);
    expect(server.requests).toHaveLength(2);
    expect(retries.map((event) => event.reason)).toEqual(["network error"]);
  });

  test("an unreachable server fails with a NetworkError after every attempt", async () => {
    server = await startTestServer(() => undefined);
    const closed = server;
    await server.close();
    server = undefined;
    const { client, retries } = observed(closed, { ...fast, limit: 2 });
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 3, status: undefined });
    expect(retries).toHaveLength(2);
  });
});

describe("timeouts", () => {
  test("a server that never answers times out on every attempt, then fails with TimeoutError", async () => {
    server = await startTestServer(() => undefined);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      timeout: 100,
      retry: { ...fast, limit: 1 },
    });
    const started = performance.now();
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ attempts: 2, timeoutMs: 100 });
    expect((error as Error).message).toMatchInlineSnapshot(
      `"errorGroups.get: GET /v1/error-groups/eg_1 failed: no complete response within 100 ms (2 attempts). Raise timeout or check the service."`,
    );
    expect(server.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(2_000);
  });

  test("retrying a timeout can be turned off", async () => {
    server = await startTestServer(() => undefined);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      timeout: 50,
      retry: { ...fast, retryOnTimeout: false },
    });
    await expect(client.errorGroups.get("eg_1")).rejects.toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });
});

describe("rate limit and concurrency", () => {
  test("the rate limiter holds 20 requests per second as the server sees them: 20 at once, the rest a window later", async () => {
    server = await startTestServer((_request, response) => sendJson(response, 200, group));
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: { limit: 20, intervalMs: 1_000 },
      concurrency: 20,
    });
    await Promise.all(Array.from({ length: 30 }, () => client.errorGroups.get("eg_1")));
    const times = server.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(times).toHaveLength(30);
    // No window of a second holds more than 20 as the server counts them ...
    for (let i = 0; i + 20 < times.length; i++) {
      expect(times[i + 20]! - times[i]!).toBeGreaterThanOrEqual(1_000);
    }
    // ... and the window is spent at once, not trickled: the other 10 wait for it to pass.
    expect(times[19]! - times[0]!).toBeLessThan(500);
  });

  test("retries count against the rate limit too", async () => {
    server = await failFirst((n) => (n < 3 ? [503] : undefined));
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      retry: { delay: () => 0 },
      rateLimit: { limit: 2, intervalMs: 300 },
    });
    await client.errorGroups.get("eg_1");
    const times = server.requests.map((r) => r.at);
    expect(times).toHaveLength(4);
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(270);
    expect(times[3]! - times[1]!).toBeGreaterThanOrEqual(270);
  });

  test("no more than `concurrency` requests are in flight at once", async () => {
    server = await startTestServer(async (_request, response) => {
      await sleep(40);
      sendJson(response, 200, group);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => client.errorGroups.get("eg_1")));
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight).toBe(3);
  });

  test("time spent queued for the rate limiter does not count toward the timeout", async () => {
    server = await startTestServer((_request, response) => sendJson(response, 200, group));
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      timeout: 100,
      rateLimit: { limit: 1, intervalMs: 150 },
    });
    await Promise.all(Array.from({ length: 3 }, () => client.errorGroups.get("eg_1")));
    expect(server.requests).toHaveLength(3);
  });
});
