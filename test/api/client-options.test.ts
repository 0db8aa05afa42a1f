import { afterEach, describe, expect, test, vi } from "vitest";
import { ClientOptionsError, createClient, ServerError, TimeoutError } from "../../src/api";
import { resolveOptions } from "../../src/api/client/resolve-options";
import { API_KEY, errorGroup, incident } from "../support/api-fixtures";
import { sendError, sendJson, startTestServer, type TestServer } from "../support/http-server";

/**
 * Issue 43: the client takes ky's option names (`timeout`, `totalTimeout`, `retry.limit`,
 * `methods`, `statusCodes`, `delay`, `backoffLimit`, `retryOnTimeout`) and carries them out
 * in its own loop; the names it had before still work, with a deprecation warning.
 */

let server: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const group = errorGroup("eg_1", "2026-05-01T00:00:00.000Z");
const unlimited = { limit: 60_000, intervalMs: 60_000, shared: false };

/** A server answering 503 `failures` times, then 200. */
async function failing(failures: number, body: unknown = group): Promise<TestServer> {
  let n = 0;
  return startTestServer((_request, response) => {
    if (n++ < failures) sendError(response, 503, "down");
    else sendJson(response, 200, body);
  });
}

describe("ky's retry options", () => {
  test("retry.statusCodes: a status left out is not retried", async () => {
    server = await failing(1);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: unlimited,
      retry: { statusCodes: [429, 502, 504], delay: () => 1 },
    });
    await expect(client.errorGroups.get("eg_1")).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  test("retry.methods: a PUT left out is not sent again after a 503; a GET still is", async () => {
    server = await failing(1, incident("inc_1"));
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: unlimited,
      retry: { methods: ["get"], delay: () => 1 },
    });
    const body = {
      name: "Checkout is slow",
      severity: "MAJOR" as const,
      services: [{ id: "svc_checkout", name: "Checkout", accountId: "acct_1" }],
    };
    await expect(client.incidents.update("inc_1", body)).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  test("retry.methods cannot name a POST: it may have been carried out when its answer is lost", () => {
    expect(() =>
      createClient({
        baseUrl: "http://127.0.0.1:1",
        apiKey: API_KEY,
        // @ts-expect-error a POST is never a method to retry after a failure
        retry: { methods: ["get", "post"] },
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [ClientOptionsError: createClient: invalid options:
      ✖ must be get or put: a post or delete may have been carried out when its answer is lost, so a post is never sent again and a delete only after a 429
        → at retry.methods[1]]
    `);
  });

  test("retry.delay and retry.backoffLimit set the wait before each failure retry", async () => {
    server = await failing(2);
    const asked: number[] = [];
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: unlimited,
      retry: {
        delay: (attemptCount) => {
          asked.push(attemptCount);
          return 10_000;
        },
        backoffLimit: 30,
      },
    });
    const started = Date.now();
    await client.errorGroups.get("eg_1");
    expect(asked).toEqual([1, 2]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("ky's totalTimeout", () => {
  test("ends a call a server keeps failing, its retries and waits included, with TimeoutError", async () => {
    server = await startTestServer((_request, response) => sendError(response, 503, "down"));
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: unlimited,
      totalTimeout: 400,
      retry: { limit: 20, delay: () => 150, backoffLimit: 150 },
    });
    const started = Date.now();
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ total: true, timeoutMs: 400 });
    expect((error as Error).message.replace(/\(\d+ attempts\)/, "(<n> attempts)")).toBe(
      "errorGroups.get: GET /v1/error-groups/eg_1 failed: not done within its totalTimeout of 400 ms, retries and waits included (<n> attempts). Raise totalTimeout or check the service.",
    );
  });

  test("cuts an attempt in flight short, whatever its own timeout", async () => {
    server = await startTestServer(() => undefined);
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: unlimited,
      timeout: 60_000,
      totalTimeout: 300,
    });
    const started = Date.now();
    const error = await client.errorGroups.get("eg_1").catch((thrown: unknown) => thrown);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error).toMatchObject({ name: "TimeoutError", total: true });
  });
});

describe("the options' former names", () => {
  test("still work, each with one deprecation warning naming ky's name", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const resolved = resolveOptions({
      baseUrl: "http://127.0.0.1:1",
      apiKey: API_KEY,
      timeoutMs: 1_234,
      retry: { baseDelayMs: 50, backoffLimitMs: 700, onTimeout: false },
    });
    expect(resolved.timeout).toBe(1_234);
    expect(resolved.retry).toMatchObject({ backoffLimit: 700, retryOnTimeout: false });
    expect([1, 2, 3].map(resolved.retry.delay)).toEqual([50, 100, 200]);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      "createClient: timeoutMs is deprecated; use timeout, ky's name for it.",
      "createClient: retry.baseDelayMs is deprecated; use retry.delay, ky's name for it.",
      "createClient: retry.backoffLimitMs is deprecated; use retry.backoffLimit, ky's name for it.",
      "createClient: retry.onTimeout is deprecated; use retry.retryOnTimeout, ky's name for it.",
    ]);
  });

  test("given with their new names, are refused, as the two could say different things", () => {
    expect(() =>
      createClient({ baseUrl: "http://127.0.0.1:1", apiKey: API_KEY, timeout: 1, timeoutMs: 2 }),
    ).toThrow(ClientOptionsError);
    expect(() =>
      createClient({ baseUrl: "http://127.0.0.1:1", apiKey: API_KEY, timeout: 1, timeoutMs: 2 }),
    ).toThrow(/timeoutMs and timeout are the same option: give timeout alone/);
  });
});
