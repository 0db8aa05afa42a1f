import { inspect } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import {
  ApiError,
  BadRequestError,
  ConflictError,
  createClient,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  ResponseValidationError,
  ServerError,
  UnauthorizedError,
} from "../../src/api";
import { API_KEY, errorGroup, incident } from "../support/api-fixtures";
import { sendError, sendJson, startTestServer, type TestServer } from "../support/http-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const noRetry = { limit: 0 };

async function failure(call: () => Promise<unknown>): Promise<ApiError> {
  const error = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** Everything a person or a log could see of an error. */
const everything = (error: unknown) =>
  `${String(error)}\n${(error as Error).stack}\n${inspect(error, { depth: Infinity, showHidden: true })}\n${JSON.stringify(error)}`;

describe("authentication", () => {
  test("every operation sends the bearer key and the account header", async () => {
    server = await startTestServer((request, response) => {
      const path = request.url.pathname;
      if (path.endsWith("/incident-updates")) return sendJson(response, 200, []);
      if (path.startsWith("/v1/status-pages/")) return sendJson(response, 200, incident("inc_1"));
      if (path.startsWith("/v1/checks/")) return sendJson(response, 200, [{ events: [] }]);
      if (path.startsWith("/v1/error-groups/checks/")) return sendJson(response, 200, []);
      return sendJson(response, 200, errorGroup("eg_1", "2026-05-01T00:00:00.000Z"));
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, accountId: "acc_42" });
    await client.incidents.update("inc_1", {
      name: "n",
      severity: "MINOR",
      services: [{ id: "svc", name: "Service", accountId: "acc_42" }],
    });
    await client.incidents.listUpdates("inc_1");
    await client.heartbeats.listEvents("chk_1");
    await client.heartbeats.eventsBetween("chk_1", "2026-05-01", "2026-05-02");
    await client.errorGroups.listForCheck("chk_1");
    await client.errorGroups.get("eg_1");
    for await (const _ of client.errorGroups.allForCheck("chk_1")) break;

    expect(server.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      "PUT /v1/status-pages/incidents/inc_1",
      "GET /v1/status-pages/incidents/inc_1/incident-updates",
      "GET /v1/checks/heartbeats/chk_1/events",
      "GET /v1/checks/heartbeats/chk_1/events",
      "GET /v1/error-groups/checks/chk_1",
      "GET /v1/error-groups/eg_1",
      "GET /v1/error-groups/checks/chk_1",
    ]);
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.headers["x-service-account"]).toBe("acc_42");
      expect(request.headers.accept).toBe("application/json");
    }
  });

  test("no account header is sent when no account is configured", async () => {
    server = await startTestServer((_request, response) => sendJson(response, 200, []));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    await client.incidents.listUpdates("inc_1");
    expect(server.requests[0]?.headers).not.toHaveProperty("x-service-account");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  test("util.inspect and JSON of the client show the base URL and account but never the key", () => {
    const client = createClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: API_KEY,
      accountId: "acc_42",
    });
    const shown = `${inspect(client, { depth: Infinity, showHidden: true })}\n${JSON.stringify(client)}\n${String(client)}`;
    expect(shown).not.toContain(API_KEY);
    expect(inspect(client, { breakLength: Number.POSITIVE_INFINITY })).toMatchInlineSnapshot(
      `"MonitoringClient { baseUrl: 'http://127.0.0.1:9', accountId: 'acc_42', apiKey: '[redacted]' }"`,
    );
  });

  test("the key appears in no error, even when the server echoes it back", async () => {
    server = await startTestServer((request, response) =>
      sendError(response, 401, `key ${request.headers.authorization?.slice(7)} is revoked`),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: noRetry });
    const error = await failure(() => client.errorGroups.get("eg_1"));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/eg_1 failed: 401 Unauthorized: key [redacted] is revoked. Check the API key the client was created with. No account was sent (x-service-account), and a personal API key needs one: set the account the key acts for (accountId)."`,
    );
    expect(everything(error)).not.toContain(API_KEY);
  });

  test("network and response-validation errors do not carry the key either", async () => {
    server = await startTestServer((_request, response) => sendJson(response, 200, { id: 1 }));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: noRetry });
    const invalid = await failure(() => client.errorGroups.get("eg_1"));
    expect(everything(invalid)).not.toContain(API_KEY);
    await server.close();
    const offline = await failure(() => client.errorGroups.get("eg_1"));
    expect(offline).toBeInstanceOf(NetworkError);
    expect(everything(offline)).not.toContain(API_KEY);
  });
});

describe("errors are typed by status and say what failed", () => {
  const cases = [
    [400, BadRequestError, "limit must be a number"],
    [401, UnauthorizedError, "missing API key"],
    [403, ForbiddenError, "the key cannot act for account acc_2"],
    [404, NotFoundError, "incident not found"],
    [409, ConflictError, "incident is being updated"],
    [500, ServerError, "database unavailable"],
  ] as const;

  test.each(cases)("a %i becomes its own error class", async (status, ErrorClass, message) => {
    server = await startTestServer((_request, response) => sendError(response, status, message));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: noRetry });
    const error = await failure(() =>
      client.incidents.update("inc_1", {
        name: "n",
        severity: "MINOR",
        services: [{ id: "s", name: "S", accountId: "acc_1" }],
      }),
    );
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.name).toBe(ErrorClass.name);
    expect(error).toMatchObject({
      operation: "incidents.update",
      method: "PUT",
      path: "/v1/status-pages/incidents/inc_1",
      status,
      serverMessage: message,
      attempts: 1,
    });
  });

  test("the message names method, path, status and the server's message", async () => {
    server = await startTestServer((_request, response) =>
      sendError(response, 404, "incident not found"),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = await failure(() =>
      client.incidents.update("inc_1", {
        name: "n",
        severity: "MINOR",
        services: [{ id: "s", name: "S", accountId: "acc_1" }],
      }),
    );
    expect(error.message).toMatchInlineSnapshot(
      `"PUT /v1/status-pages/incidents/inc_1 failed: 404 Not Found: incident not found"`,
    );
  });

  test("the query is part of the path in the message", async () => {
    server = await startTestServer((_request, response) =>
      sendError(response, 404, "check not found"),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = await failure(() =>
      client.errorGroups.listForCheck("chk_9", { limit: 100, page: 3 }),
    );
    expect(error.message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/checks/chk_9?limit=100&page=3 failed: 404 Not Found: check not found"`,
    );
  });

  test("any other error body is tolerated: plain text is quoted, HTML is left out", async () => {
    server = await startTestServer((request, response) => {
      if (request.url.pathname.endsWith("text")) {
        response.writeHead(422, { "content-type": "text/plain" });
        response.end("name is taken\nmore detail");
      } else {
        response.writeHead(502, { "content-type": "text/html" });
        response.end("<html><body>Bad gateway</body></html>");
      }
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: noRetry });
    const text = await failure(() => client.errorGroups.get("text"));
    expect(text.constructor).toBe(ApiError);
    expect(text.message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/text failed: 422 Unprocessable Entity: name is taken"`,
    );
    const html = await failure(() => client.errorGroups.get("html"));
    expect(html).toBeInstanceOf(ServerError);
    expect(html.message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/html failed: 502 Bad Gateway. The service failed; try again later."`,
    );
  });

  test("a response that breaks the contract names the operation and the field", async () => {
    server = await startTestServer((_request, response) => {
      const { lastSeen: _dropped, ...group } = errorGroup("eg_1", "2026-05-01T00:00:00.000Z");
      sendJson(response, 200, { ...group, archivedUntilNextEvent: "no" });
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = await failure(() => client.errorGroups.get("eg_1"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatchInlineSnapshot(
      `"errorGroups.get: GET /v1/error-groups/eg_1 returned a response that breaks the API contract at lastSeen: Invalid input: expected string, received undefined; archivedUntilNextEvent: Invalid input: expected boolean, received string"`,
    );
    expect((error as ResponseValidationError).issues.map((issue) => issue.field)).toEqual([
      "lastSeen",
      "archivedUntilNextEvent",
    ]);
    expect(error.status).toBe(200);
  });

  test("a nested field is named by its full path", async () => {
    server = await startTestServer((_request, response) =>
      sendJson(response, 200, [
        { events: [{ id: "e1", state: "FAILING", timestamp: 5, source: "s", userAgent: "u" }] },
      ]),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = await failure(() => client.heartbeats.listEvents("chk_1"));
    expect(error.message).toMatchInlineSnapshot(
      `"heartbeats.listEvents: GET /v1/checks/heartbeats/chk_1/events returned a response that breaks the API contract at [0].events[0].timestamp: Invalid input: expected string, received number"`,
    );
  });

  test("a body that is not JSON is a contract break too", async () => {
    server = await startTestServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{not json");
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = await failure(() => client.incidents.listUpdates("inc_1"));
    expect(error.message).toMatchInlineSnapshot(
      `"incidents.listUpdates: GET /v1/status-pages/incidents/inc_1/incident-updates returned a response that breaks the API contract at (body): the body is not valid JSON"`,
    );
  });

  test("every client error shares the ApiError base and carries its cause", async () => {
    server = await startTestServer((_request, response) => sendJson(response, 200, []));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: noRetry });
    await server.close();
    const error = await failure(() => client.errorGroups.get("eg_1"));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toMatch(
      /^GET \/v1\/error-groups\/eg_1 failed: network error: connect ECONNREFUSED 127\.0\.0\.1:\d+\. Check that the API URL is right and the service is reachable\.$/,
    );
  });
});
