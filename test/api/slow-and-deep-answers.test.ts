import { performance } from "node:perf_hooks";
import { describe, expect, test } from "vitest";
import {
  BadRequestError,
  createClient,
  DeadlineError,
  ResponseTooLargeError,
  TimeoutError,
} from "../../src/api";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { caught, drip, sendJson, serversClosedAfterEach } from "../support/http-server";

/**
 * Issue 36: a server that answers at once and then sends its body a byte at a time held
 * every command with no end, because the body was read outside the timeout; a throttling
 * server held an `up` for 16 minutes; and a body nested 2 million levels deep crashed
 * `report errors --details` with a stack overflow.
 */
const start = serversClosedAfterEach();
const fast = { delay: () => 1, backoffLimit: 2 };

describe("a body that arrives a byte at a time", () => {
  test("times out within the attempt's timeout, is retried, then fails naming the operation", async () => {
    const server = await start(drip(20));
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      timeout: 300,
      retry: { ...fast, limit: 1 },
    });
    const started = performance.now();
    const error = await caught(client.incidents.listUpdates("inc_1"));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"incidents.listUpdates: GET /v1/status-pages/incidents/inc_1/incident-updates failed: no complete response within 300 ms (2 attempts). Raise timeout or check the service."`,
    );
    expect(server.requests).toHaveLength(2);
    expect(elapsed).toBeLessThan(3_000);
  }, 10_000);

  test("a body that arrives whole within the timeout, however slowly, is read", async () => {
    const body = JSON.stringify([errorGroup("eg_1", "2026-05-01T00:00:00.000Z")]);
    const server = await start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      let sent = 0;
      const timer = setInterval(() => {
        response.write(body.slice(sent, sent + 40));
        sent += 40;
        if (sent >= body.length) {
          clearInterval(timer);
          response.end();
        }
      }, 5);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, timeout: 5_000 });
    expect(await client.errorGroups.listForCheck("chk_1", { page: 1 })).toHaveLength(1);
  });
});

describe("the client's deadline", () => {
  test("ends a call that a server throttles without end by the deadline, with DeadlineError, as soon as the next wait would pass it", async () => {
    const server = await start((_request, response) =>
      sendJson(
        response,
        429,
        { statusCode: 429, error: "Too Many Requests" },
        { "retry-after": "1" },
      ),
    );
    const deadline = Date.now() + 1_500;
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, deadline, retry: fast });
    const error = await caught(client.incidents.listUpdates("inc_1"));
    const late = Date.now() - deadline;
    expect(error).toBeInstanceOf(DeadlineError);
    expect(
      (error as Error).message
        .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/, "<deadline>")
        .replace(/ \(\d+ attempts\)/, ""),
    ).toMatchInlineSnapshot(
      `"incidents.listUpdates: GET /v1/status-pages/incidents/inc_1/incident-updates stopped at the deadline, <deadline>."`,
    );
    // Retry-After 1 s twice fits in the 1.5 s; the third wait would end past it.
    expect(late).toBeGreaterThan(-1_000);
    expect(late).toBeLessThan(60);
  }, 10_000);

  test("stops a dripping body in flight at the deadline, whatever the attempt's own timeout", async () => {
    const server = await start(drip(20));
    const deadline = Date.now() + 500;
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      deadline: new Date(deadline),
      timeout: 60_000,
    });
    expect(await caught(client.errorGroups.get("eg_1"))).toBeInstanceOf(DeadlineError);
    expect(Date.now() - deadline).toBeLessThan(1_000);
  }, 10_000);

  test("sends nothing once the deadline has passed", async () => {
    const server = await start((_request, response) => sendJson(response, 200, []));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, deadline: Date.now() - 1 });
    expect(await caught(client.incidents.listUpdates("inc_1"))).toBeInstanceOf(DeadlineError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("nesting", () => {
  /** `{"a":{"a":…1…}}`, `depth` objects deep. */
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

  test("an answer nested 2 million levels deep is refused before it is parsed, naming the limit", async () => {
    const group = JSON.stringify(errorGroup("eg_1", "2026-05-01T00:00:00.000Z"));
    const body = `${group.slice(0, -1)},"rootCauseAnalyses":[${nested(2_000_000)}]}`;
    const server = await start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(body);
    });
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      limits: { maxBodyBytes: 20e6 },
    });
    const error = await caught(client.errorGroups.get("eg_1"));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"errorGroups.get: GET /v1/error-groups/eg_1 answered with a body nested more than 64 levels deep, more than the client reads (maxDepth 64); refused."`,
    );
  });

  test("an answer as deep as maxDepth is read", async () => {
    const group = { ...errorGroup("eg_1", "2026-05-01T00:00:00.000Z"), rootCauseAnalyses: [] };
    const body = JSON.stringify(group).replace(
      '"rootCauseAnalyses":[]',
      `"rootCauseAnalyses":[${nested(62)}]`,
    );
    const server = await start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(body);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    expect((await client.errorGroups.get("eg_1")).rootCauseAnalyses).toHaveLength(1);
  });

  test("an error body nested too deep to write out leaves its detail out, and the error is still the server's", async () => {
    const server = await start((_request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(`{"statusCode":400,"error":"Invalid page","details":${nested(1_000_000)}}`);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: fast });
    const error = await caught(client.errorGroups.get("eg_1"));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/eg_1 failed: 400 Bad Request: Invalid page"`,
    );
  });
});
