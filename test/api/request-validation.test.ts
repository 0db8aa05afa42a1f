import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ClientOptionsError,
  createClient,
  type IncidentRequest,
  type MonitoringClient,
  RequestValidationError,
} from "../../src/api";
import { API_KEY, incident } from "../support/api-fixtures";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

let server: TestServer;
let client: MonitoringClient;

beforeAll(async () => {
  server = await startTestServer((_request, response) => sendJson(response, 200, []));
  client = createClient({ baseUrl: server.url, apiKey: API_KEY });
});
afterAll(() => server.close());

async function refusal(call: () => Promise<unknown>): Promise<RequestValidationError> {
  const before = server.requests.length;
  const error = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(server.requests.length, "a refused request must not reach the server").toBe(before);
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

const validBody: IncidentRequest = {
  name: "Checkout is slow",
  severity: "MAJOR",
  services: [{ id: "svc_checkout", name: "Checkout", accountId: "acc_42" }],
};

describe("requests outside the spec are refused before anything is sent", () => {
  test("heartbeat events refuse a limit of 11", async () => {
    const error = await refusal(() => client.heartbeats.listEvents("chk_1", { limit: 11 }));
    expect(error.message).toMatchInlineSnapshot(`
      "heartbeats.listEvents refused before sending (GET /v1/checks/heartbeats/{checkId}/events):
      ✖ Too big: expected number to be <=10
        → at limit"
    `);
    expect(error).toMatchObject({
      operation: "heartbeats.listEvents",
      method: "GET",
      status: undefined,
      attempts: 0,
    });
  });

  test("heartbeat events refuse a limit of 0 and a fractional limit", async () => {
    await refusal(() => client.heartbeats.listEvents("chk_1", { limit: 0 }));
    const error = await refusal(() => client.heartbeats.listEvents("chk_1", { limit: 2.5 }));
    expect(error.problems).toMatchInlineSnapshot(`
      "✖ Invalid input: expected int, received number
        → at limit"
    `);
  });

  test("heartbeat events refuse a malformed time, an invalid Date and a start after the end", async () => {
    const text = await refusal(() =>
      client.heartbeats.listEvents("chk_1", { startTime: "yesterday" }),
    );
    expect(text.problems).toMatchInlineSnapshot(`
      "✖ must be an RFC 3339 date-time such as 2026-05-01T12:00:00.000Z or a date such as 2026-05-01, not "yesterday"
        → at startTime"
    `);
    const invalid = await refusal(() =>
      client.heartbeats.listEvents("chk_1", { endTime: new Date("not a date") }),
    );
    expect(invalid.problems).toMatchInlineSnapshot(`
      "✖ is an invalid Date
        → at endTime"
    `);
    const reversed = await refusal(() =>
      client.heartbeats.eventsBetween("chk_1", "2026-05-02T00:00:00Z", "2026-05-01T00:00:00Z"),
    );
    expect(reversed.message).toMatchInlineSnapshot(`
      "heartbeats.eventsBetween refused before sending (GET /v1/checks/heartbeats/{checkId}/events):
      ✖ must not be after endTime (2026-05-02T00:00:00Z > 2026-05-01T00:00:00Z)
        → at startTime"
    `);
  });

  test("error groups refuse a limit of 0 or 101 and a page of 0", async () => {
    const zero = await refusal(() => client.errorGroups.listForCheck("chk_1", { limit: 0 }));
    expect(zero.problems).toMatchInlineSnapshot(`
      "✖ Too small: expected number to be >=1
        → at limit"
    `);
    const tooMany = await refusal(() => client.errorGroups.listForCheck("chk_1", { limit: 101 }));
    expect(tooMany.message).toMatchInlineSnapshot(`
      "errorGroups.listForCheck refused before sending (GET /v1/error-groups/checks/{checkId}):
      ✖ Too big: expected number to be <=100
        → at limit"
    `);
    const page = await refusal(() => client.errorGroups.listForCheck("chk_1", { page: 0 }));
    expect(page.problems).toMatchInlineSnapshot(`
      "✖ Too small: expected number to be >=1
        → at page"
    `);
  });

  test("allForCheck refuses a page size over 100 when called, before the first page", async () => {
    const before = server.requests.length;
    expect(() =>
      client.errorGroups.allForCheck("chk_1", { pageSize: 101 }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [RequestValidationError: errorGroups.allForCheck refused before sending (GET /v1/error-groups/checks/{checkId}):
      ✖ Too big: expected number to be <=100
        → at pageSize]
    `);
    expect(server.requests.length).toBe(before);
  });

  test("an empty incidentId, checkId or error group id is refused", async () => {
    const update = await refusal(() => client.incidents.update("", validBody));
    expect(update.message).toMatchInlineSnapshot(`
      "incidents.update refused before sending (PUT /v1/status-pages/incidents/{incidentId}):
      ✖ must not be empty
        → at incidentId"
    `);
    await refusal(() => client.incidents.listUpdates(""));
    await refusal(() => client.heartbeats.listEvents(""));
    await refusal(() => client.errorGroups.listForCheck(""));
    const get = await refusal(() => client.errorGroups.get(""));
    expect(get.problems).toMatchInlineSnapshot(`
      "✖ must not be empty
        → at id"
    `);
  });

  test("a dot segment as an id is refused, because URL parsing would change the path", async () => {
    const error = await refusal(() => client.errorGroups.get(".."));
    expect(error.problems).toMatchInlineSnapshot(`
      "✖ must not be '.' or '..' (URL parsing would change the path)
        → at id"
    `);
  });

  test("an incident body that breaks the spec is refused with every problem listed", async () => {
    const body = {
      name: "x".repeat(256),
      severity: "BAD",
      services: [],
      colour: "red",
    } as unknown as IncidentRequest;
    const error = await refusal(() => client.incidents.update("inc_1", body));
    expect(error.message).toMatchInlineSnapshot(`
      "incidents.update refused before sending (PUT /v1/status-pages/incidents/{incidentId}):
      ✖ Unrecognized key: "colour"
        → at body
      ✖ Too big: expected string to have <=255 characters
        → at body.name
      ✖ Invalid option: expected one of "CRITICAL"|"MAJOR"|"MEDIUM"|"MINOR"
        → at body.severity
      ✖ Too small: expected array to have >=1 items
        → at body.services"
    `);
  });

  test("a service without its name or the acting account is refused: the service requires both", async () => {
    const without = (omit: "name" | "accountId") => {
      const { [omit]: _left, ...service } = validBody.services[0]!;
      return { ...validBody, services: [service] } as unknown as IncidentRequest;
    };
    const noName = await refusal(() => client.incidents.update("inc_1", without("name")));
    expect(noName.problems).toMatchInlineSnapshot(`
      "✖ Invalid input: expected string, received undefined
        → at body.services[0].name"
    `);
    const noAccount = await refusal(() => client.incidents.update("inc_1", without("accountId")));
    expect(noAccount.problems).toMatchInlineSnapshot(`
      "✖ Invalid input: expected string, received undefined
        → at body.services[0].accountId"
    `);
    const blank = { ...validBody, services: [{ id: "svc_checkout", name: "", accountId: "" }] };
    const empty = await refusal(() => client.incidents.update("inc_1", blank));
    expect(empty.problems).toMatchInlineSnapshot(`
      "✖ Too small: expected string to have >=1 characters
        → at body.services[0].name
      ✖ Too small: expected string to have >=1 characters
        → at body.services[0].accountId"
    `);
    expect(noName).toMatchObject({ operation: "incidents.update", method: "PUT", attempts: 0 });
  });

  test("unknown query options are refused rather than silently dropped", async () => {
    const error = await refusal(() =>
      client.errorGroups.listForCheck("chk_1", { pageSize: 5 } as unknown as { limit: number }),
    );
    expect(error.problems).toMatchInlineSnapshot(`"✖ Unrecognized key: "pageSize""`);
  });
});

describe("path parameters stay one path segment", () => {
  test("ids in any script, with colons and at signs, are percent-encoded into one segment", async () => {
    const before = server.requests.length;
    await client.errorGroups.listForCheck("chk:ü@1");
    expect(server.requests[before]?.rawPath).toBe("/v1/error-groups/checks/chk%3A%C3%BC%401");
  });

  test("an id that would leave its segment or hide a character is refused before sending", async () => {
    const refused = [
      "..",
      ".",
      "a/b",
      "a\\b",
      "a?b",
      "a#b",
      "%2e%2e",
      "a b",
      " ",
      "inc\u0000",
      "inc\u0007",
      "inc\u202Eabc",
      "inc\u200Bx",
      "x".repeat(256),
    ];
    for (const id of refused) {
      await refusal(() => client.incidents.update(id, validBody));
      await refusal(() => client.incidents.listUpdates(id));
      await refusal(() => client.heartbeats.listEvents(id));
      await refusal(() => client.errorGroups.listForCheck(id));
      await refusal(() => client.errorGroups.get(id));
    }
    const bidi = await refusal(() => client.incidents.update("inc\u202Eabc", validBody));
    expect(bidi.message).toMatchInlineSnapshot(`
      "incidents.update refused before sending (PUT /v1/status-pages/incidents/{incidentId}):
      ✖ must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 4); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
        → at incidentId"
    `);
    const slash = await refusal(() => client.errorGroups.get("eg/1"));
    expect(slash.problems).toMatchInlineSnapshot(`
      "✖ must not contain "/" (character 3); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
        → at id"
    `);
    const blank = await refusal(() => client.heartbeats.listEvents("  "));
    expect(blank.problems).toMatchInlineSnapshot(`
      "✖ must not be blank (it holds only whitespace)
        → at checkId"
    `);
    const long = await refusal(() => client.incidents.listUpdates("x".repeat(256)));
    expect(long.problems).toMatchInlineSnapshot(`
      "✖ must be at most 255 characters long
        → at incidentId"
    `);
  });

  test("the incident id is encoded in the PUT path and the server-owned fields are not sent", async () => {
    const local = await startTestServer((request, response) =>
      sendJson(
        response,
        200,
        incident(decodeURIComponent(request.url.pathname.split("/").pop() ?? "")),
      ),
    );
    const own = createClient({ baseUrl: local.url, apiKey: API_KEY });
    const result = await own.incidents.update("inc-ü:1", {
      ...validBody,
      id: "ignored",
      created_at: "2026-05-01",
    });
    await local.close();
    expect(result.id).toBe("inc-ü:1");
    expect(local.requests[0]?.rawPath).toBe("/v1/status-pages/incidents/inc-%C3%BC%3A1");
    expect(JSON.parse(local.requests[0]?.body ?? "")).toEqual(validBody);
    expect(local.requests[0]?.headers["content-type"]).toMatch(/^application\/json/);
  });
});

describe("createClient checks its options", () => {
  test("a missing key, a relative URL and a zero concurrency are named together", () => {
    expect(() =>
      createClient({ baseUrl: "localhost:4010", apiKey: " ", concurrency: 0 }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [ClientOptionsError: createClient: invalid options:
      ✖ must be an http(s) URL
        → at baseUrl
      ✖ must not be empty
        → at apiKey
      ✖ Too small: expected number to be >=1
        → at concurrency]
    `);
  });

  test("an invalid option never echoes the key", () => {
    let error: unknown;
    try {
      createClient({ baseUrl: "ftp://x", apiKey: API_KEY, timeout: -1 });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ClientOptionsError);
    expect(String((error as Error).message)).not.toContain(API_KEY);
  });
});
