import { gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import {
  createClient,
  createHttpFetch,
  NetworkError,
  ResponseTooLargeError,
  TimeoutError,
} from "../../src/api";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { caught, drip, sendError, sendJson, serversClosedAfterEach } from "../support/http-server";

/**
 * `report errors` reads its pages through `createHttpFetch` (node:http) instead of Node's
 * `fetch` (undici), for memory (issue 52). Each case runs under both: the client must not
 * tell them apart.
 */
const start = serversClosedAfterEach();
const fast = { delay: () => 1, backoffLimit: 2 };
const group = errorGroup("eg_1", "2026-05-01T00:00:00.000Z");

describe.each([
  ["Node's fetch", undefined],
  ["createHttpFetch", createHttpFetch()],
])("the client over %s", (_name, fetch) => {
  const clientOf = (url: string, options: Partial<Parameters<typeof createClient>[0]> = {}) =>
    createClient({ baseUrl: url, apiKey: API_KEY, accountId: "acct_1", fetch, ...options });

  test("sends the key, the account and the JSON body, and reads the answer", async () => {
    const server = await start((_request, response) => sendJson(response, 200, [group]));
    expect(await clientOf(server.url).errorGroups.listForCheck("chk_1", { page: 2 })).toEqual([
      group,
    ]);
    const [request] = server.requests;
    expect(request?.rawPath).toBe("/v1/error-groups/checks/chk_1?page=2");
    expect(request?.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      accept: "application/json",
      "x-service-account": "acct_1",
    });
  });

  test("a POST's body arrives whole, with its length", async () => {
    const server = await start((request, response) =>
      sendJson(response, 200, { echoed: JSON.parse(request.body) as unknown }),
    );
    const answer = await (fetch ?? globalThis.fetch)(`${server.url}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Nightly invoice run ✓" }),
    });
    expect(await answer.json()).toEqual({ echoed: { name: "Nightly invoice run ✓" } });
    expect(server.requests[0]?.headers["content-length"]).toBe(
      String(Buffer.byteLength('{"name":"Nightly invoice run ✓"}')),
    );
  });

  test("a gzipped answer is read decoded", async () => {
    const server = await start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(gzipSync(JSON.stringify([group])));
    });
    expect(await clientOf(server.url).errorGroups.listForCheck("chk_1")).toEqual([group]);
  });

  test("a 204 answer has no body, and a redirect is handed back, not followed", async () => {
    const server = await start((request, response) => {
      response.writeHead(request.url.pathname === "/moved" ? 302 : 204, { location: "/there" });
      response.end();
    });
    const send = fetch ?? globalThis.fetch;
    const empty = await send(`${server.url}/none`);
    expect([empty.status, empty.body, await empty.text()]).toEqual([204, null, ""]);
    const moved = await send(`${server.url}/moved`, { redirect: "manual" });
    expect([moved.status, moved.headers.get("location")]).toEqual([302, "/there"]);
    expect(server.requests).toHaveLength(2);
  });

  test("a dropped connection and a body cut short are retried as network errors", async () => {
    let n = 0;
    const server = await start((_request, response) => {
      n += 1;
      if (n === 1) response.socket?.destroy();
      else if (n === 2) {
        response.writeHead(200, { "content-type": "application/json", "content-length": "999" });
        response.write('[{"id":');
        setTimeout(() => response.socket?.destroy(), 20);
      } else sendJson(response, 200, group);
    });
    const reasons: string[] = [];
    const client = clientOf(server.url, {
      retry: { ...fast, limit: 2 },
      onRetry: (event) => reasons.push(event.reason),
    });
    expect(await client.errorGroups.get("eg_1")).toEqual(group);
    expect(reasons).toEqual(["network error", "network error"]);
  });

  test("a 429 with Retry-After is waited out and sent again, the server's reason kept", async () => {
    let n = 0;
    const server = await start((_request, response) => {
      n += 1;
      if (n === 1) sendError(response, 429, "slow down", { "retry-after": "0" });
      else sendJson(response, 200, group);
    });
    const reasons: string[] = [];
    const client = clientOf(server.url, {
      retry: fast,
      onRetry: (event) => reasons.push(event.reason),
    });
    expect(await client.errorGroups.get("eg_1")).toEqual(group);
    expect(reasons).toEqual(["429 Too Many Requests"]);
  });

  test("an unreachable server fails with a NetworkError after every attempt", async () => {
    const server = await start(() => undefined);
    await server.close();
    const error = await caught(
      clientOf(server.url, { retry: { ...fast, limit: 1 } }).errorGroups.get("eg_1"),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 2 });
  });

  test("a body that never ends times out, and one too long is refused as it is read", async () => {
    const dripping = await start(drip(20));
    const late = await caught(
      clientOf(dripping.url, { timeout: 200, retry: { ...fast, limit: 0 } }).errorGroups.get(
        "eg_1",
      ),
    );
    expect(late).toBeInstanceOf(TimeoutError);
    const long = await start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(Array.from({ length: 50 }, () => group)));
    });
    const refused = await caught(
      clientOf(long.url, { limits: { maxBodyBytes: 2_000 } }).errorGroups.listForCheck("chk_1"),
    );
    expect(refused).toBeInstanceOf(ResponseTooLargeError);
  });
});

describe("createHttpFetch's bodies", () => {
  const fetch = createHttpFetch();

  test("a body cancelled before it is read lets its socket go", async () => {
    let closed = false;
    const server = await start((_request, response) => {
      response.on("close", () => {
        closed = true;
      });
      response.writeHead(200, { "content-type": "application/json", "content-length": "999999" });
      response.write("[");
    });
    const answer = await fetch(`${server.url}/big`);
    await answer.body?.cancel();
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
  });

  test("an answer over the size limit is refused unread, and its socket let go", async () => {
    let closed = false;
    const server = await start((_request, response) => {
      response.on("close", () => {
        closed = true;
      });
      response.writeHead(200, { "content-type": "application/json", "content-length": "999999" });
      response.write("[");
    });
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      accountId: "acct_1",
      fetch,
      limits: { maxBodyBytes: 1_000 },
      retry: fast,
    });
    expect(await caught(client.errorGroups.listForCheck("chk_1"))).toBeInstanceOf(
      ResponseTooLargeError,
    );
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
  });

  test("a gzipped body that breaks before it is read fails that read, and nothing else", async () => {
    const server = await start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(Buffer.from("not gzip at all"));
    });
    const answer = await fetch(`${server.url}/broken`);
    // The decoder fails while nobody reads: with no listener, the process would end here.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await caught(answer.text())).toMatchObject({ name: "TypeError", message: "terminated" });
  });
});
