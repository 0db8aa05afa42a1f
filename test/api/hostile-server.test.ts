import { describe, expect, test } from "vitest";
import {
  createClient,
  type IncidentUpdate,
  PagingError,
  RedirectError,
  ResponseTooLargeError,
} from "../../src/api";
import { API_KEY, errorGroup, heartbeatEvent, incident, stats } from "../support/api-fixtures";
import { caught, sendJson, serversClosedAfterEach } from "../support/http-server";

/**
 * A hostile or broken server cannot hold a run or fill its memory (issue 22): paging ends,
 * answers have size limits, and redirects go nowhere the key or a write should not.
 */
const start = serversClosedAfterEach();
const fast = { delay: () => 1, backoffLimit: 2 };
const drain = async (groups: AsyncIterable<unknown>) => {
  let count = 0;
  for await (const _ of groups) count++;
  return count;
};
const putIncident = (client: ReturnType<typeof createClient>) =>
  client.incidents.update("inc_1", {
    name: "API down",
    severity: "MAJOR",
    services: [{ id: "svc_api", name: "Public API", accountId: "acct_1" }],
  });
const update = (n: number, description = `Update ${n}`): IncidentUpdate => ({
  id: `upd_${n}`,
  description,
  status: "INVESTIGATING",
  publicIncidentUpdateDate: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  notifySubscribers: false,
});

describe("paging against a server that would never end a listing", () => {
  test("a server that ignores page stops at the first page with nothing new, naming it", async () => {
    const page = Array.from({ length: 100 }, (_, n) =>
      errorGroup(`eg_${n}`, "2026-05-01T00:00:00.000Z"),
    );
    const server = await start((_request, response) => sendJson(response, 200, page));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 2 });
    const error = await caught(drain(client.errorGroups.allForCheck("chk_1")));
    expect(error).toBeInstanceOf(PagingError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"errorGroups.allForCheck: GET /v1/error-groups/checks/chk_1?limit=100&page=2 returned only items of earlier pages (page 2, 100 a page): the server seems to ignore \`page\`; stopped."`,
    );
    // Page 1, then page 2 and the one prefetched beside it.
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  test("a server with new full pages forever stops at maxPages", async () => {
    const server = await start((request, response) => {
      const page = Number(request.url.searchParams.get("page"));
      sendJson(
        response,
        200,
        Array.from({ length: 100 }, (_, n) =>
          errorGroup(`eg_${page}_${n}`, "2026-05-01T00:00:00.000Z"),
        ),
      );
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, limits: { maxPages: 5 } });
    const error = await caught(drain(client.errorGroups.allForCheck("chk_1")));
    expect(error).toBeInstanceOf(PagingError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"errorGroups.allForCheck: GET /v1/error-groups/checks/chk_1?limit=100&page=5 returned a full page 5, and the listing may take at most 5 pages (maxPages); stopped."`,
    );
    expect(server.requests.length).toBe(5);
  });

  test("a heartbeat window of new, ever older full pages stops at maxPages", async () => {
    let oldest = Date.parse("2026-05-01T00:00:00.000Z");
    const server = await start((_request, response) => {
      const events = Array.from({ length: 10 }, (_, n) => {
        oldest -= 1_000;
        return heartbeatEvent(`ev_${oldest}_${n}`, new Date(oldest).toISOString());
      });
      sendJson(response, 200, [{ events, stats }]);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, limits: { maxPages: 4 } });
    const error = await caught(
      client.heartbeats.eventsBetween(
        "hb_1",
        "2025-01-01T00:00:00.000Z",
        "2026-05-01T00:00:00.000Z",
      ),
    );
    expect(error).toBeInstanceOf(PagingError);
    expect(server.requests.length).toBe(4);
  });
});

describe("the incident list's cursor", () => {
  test("an empty nextId ends the listing, as null does, and an odd entry is kept apart with its name", async () => {
    const server = await start((_request, response) =>
      sendJson(response, 200, {
        length: 2,
        entries: [incident("inc_1"), { id: "inc_2", name: "API down", severity: 7 }],
        nextId: "",
      }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, accountId: "acct_1" });
    const pages = [];
    for await (const page of client.incidents.pages()) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.nextId).toBeNull();
    expect(pages[0]?.entries.map((entry) => entry.id)).toEqual(["inc_1"]);
    expect(pages[0]?.skipped).toEqual([
      { index: 1, id: "inc_2", name: "API down", problem: expect.stringContaining("severity") },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  test("a delete answered 200 with a body is a delete done", async () => {
    const server = await start((_request, response) => sendJson(response, 200, { deleted: true }));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, accountId: "acct_1" });
    await expect(client.incidents.remove("inc_1")).resolves.toBeUndefined();
  });
});

describe("size limits on answers", () => {
  test("a body longer than maxBodyBytes is refused, by its Content-Length or as it is read", async () => {
    const big = Array.from({ length: 50 }, (_, n) => update(n, "x".repeat(1_000)));
    const server = await start((request, response) => {
      const body = JSON.stringify(big);
      if (request.url.pathname.includes("declared")) {
        response.writeHead(200, {
          "content-type": "application/json",
          "content-length": String(body.length),
        });
      } else {
        // Chunked: no length to check first.
        response.writeHead(200, { "content-type": "application/json" });
      }
      response.end(body);
    });
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      limits: { maxBodyBytes: 10_000 },
      retry: fast,
    });
    const declared = await caught(client.incidents.listUpdates("declared"));
    expect(declared).toBeInstanceOf(ResponseTooLargeError);
    expect((declared as Error).message).toMatchInlineSnapshot(
      `"incidents.listUpdates: GET /v1/status-pages/incidents/declared/incident-updates answered with a body of 56891 bytes, more than the client reads (maxBodyBytes 10000); refused."`,
    );
    const streamed = await caught(client.incidents.listUpdates("streamed"));
    expect(streamed).toBeInstanceOf(ResponseTooLargeError);
    expect((streamed as Error).message).toMatchInlineSnapshot(
      `"incidents.listUpdates: GET /v1/status-pages/incidents/streamed/incident-updates answered with a body of more than 10000 bytes, more than the client reads (maxBodyBytes 10000); refused."`,
    );
  });

  test("a list of more updates than maxItems is refused, naming the request", async () => {
    const server = await start((_request, response) =>
      sendJson(
        response,
        200,
        Array.from({ length: 30 }, (_, n) => update(n)),
      ),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, limits: { maxItems: 20 } });
    const error = await caught(client.incidents.listUpdates("inc_1"));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"incidents.listUpdates: GET /v1/status-pages/incidents/inc_1/incident-updates answered with 30 items, more than the client reads (maxItems 20); refused."`,
    );
  });
});

describe("redirects", () => {
  test("a PUT redirected to another origin fails naming both hosts, and the other host gets nothing", async () => {
    const elsewhere = await start((_request, response) =>
      sendJson(response, 200, incident("inc_1")),
    );
    const api = await start((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/v1/status-pages/incidents/inc_1` });
      response.end();
    });
    const client = createClient({ baseUrl: api.url, apiKey: API_KEY, retry: fast });
    const error = await caught(putIncident(client));
    expect(error).toBeInstanceOf(RedirectError);
    const message = (error as Error).message
      .replaceAll(new URL(api.url).host, "<api-host>")
      .replaceAll(new URL(elsewhere.url).host, "<other-host>");
    expect(message).toMatchInlineSnapshot(
      `"incidents.update: PUT /v1/status-pages/incidents/inc_1 was redirected (307) to http://<other-host>/v1/status-pages/incidents/inc_1: another origin than the API's (<api-host> → <other-host>); the client follows no redirect there, and never sends the key there. Check the API's base URL."`,
    );
    expect(elsewhere.requests).toHaveLength(0);
  });

  test("a PUT redirected within the API's origin is not sent again", async () => {
    const api = await start((request, response) => {
      if (request.url.pathname.startsWith("/moved"))
        return sendJson(response, 200, incident("inc_1"));
      response.writeHead(308, { location: "/moved/v1/status-pages/incidents/inc_1" });
      response.end();
    });
    const client = createClient({ baseUrl: api.url, apiKey: API_KEY, retry: fast });
    const error = await caught(putIncident(client));
    expect(error).toBeInstanceOf(RedirectError);
    expect(
      (error as Error).message.replaceAll(new URL(api.url).host, "<api-host>"),
    ).toMatchInlineSnapshot(
      `"incidents.update: PUT /v1/status-pages/incidents/inc_1 was redirected (308) to http://<api-host>/moved/v1/status-pages/incidents/inc_1: a PUT is not sent again to another address. Check the API's base URL."`,
    );
    expect(api.requests).toHaveLength(1);
  });

  test("a GET redirected within the API's origin is followed, with the key", async () => {
    const api = await start((request, response) => {
      if (request.url.pathname.startsWith("/moved")) return sendJson(response, 200, [update(1)]);
      response.writeHead(302, { location: `/moved${request.rawPath}` });
      response.end();
    });
    const client = createClient({ baseUrl: api.url, apiKey: API_KEY });
    expect(await client.incidents.listUpdates("inc_1")).toHaveLength(1);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${API_KEY}`,
      `Bearer ${API_KEY}`,
    ]);
  });

  test("a GET redirected to another origin fails and sends the other host nothing", async () => {
    const elsewhere = await start((_request, response) => sendJson(response, 200, [update(1)]));
    const api = await start((request, response) => {
      response.writeHead(301, { location: `${elsewhere.url}${request.rawPath}` });
      response.end();
    });
    const client = createClient({ baseUrl: api.url, apiKey: API_KEY });
    expect(await caught(client.incidents.listUpdates("inc_1"))).toBeInstanceOf(RedirectError);
    expect(elsewhere.requests).toHaveLength(0);
  });
});
