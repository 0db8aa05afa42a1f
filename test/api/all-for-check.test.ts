import { afterEach, describe, expect, test } from "vitest";
import { createClient, type ErrorGroup, NotFoundError } from "../../src/api";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { sendError, sleep, startTestServer, type TestServer } from "../support/http-server";
import { serveErrorGroups } from "../support/paged-data";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BASE = Date.parse("2026-05-01T00:00:00.000Z");
const makeGroups = (count: number): ErrorGroup[] =>
  Array.from({ length: count }, (_, i) =>
    errorGroup(`eg_${String(i).padStart(5, "0")}`, new Date(BASE - i * 60_000).toISOString()),
  );

const pageOf = (rawPath: string) => Number(new URL(rawPath, "http://x").searchParams.get("page"));

describe("errorGroups.allForCheck", () => {
  test("returns each of 2,500 groups exactly once across 25 pages, with at most N pages in flight", async () => {
    const groups = makeGroups(2_500);
    server = await startTestServer(async (request, response) => {
      await sleep(15);
      serveErrorGroups(() => groups, request, response);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 4 });
    const pages: [number, number][] = [];

    const ids: string[] = [];
    for await (const group of client.errorGroups.allForCheck("chk_1", {
      onPage: (page, count) => pages.push([page, count]),
    })) {
      ids.push(group.id);
    }

    expect(ids).toHaveLength(2_500);
    expect(new Set(ids).size).toBe(2_500);
    expect(ids).toEqual(groups.map((g) => g.id));
    expect(pages.slice(0, 25).every(([, count]) => count === 100)).toBe(true);
    expect(pages.at(-1)).toEqual([26, 0]);
    expect(server.maxInFlight).toBeLessThanOrEqual(4);
    expect(server.maxInFlight).toBeGreaterThan(1);
    for (const request of server.requests) {
      expect(request.url.searchParams.get("limit")).toBe("100");
    }
    // Pages past the first short one are requested only while it is still in flight.
    expect(Math.max(...server.requests.map((r) => pageOf(r.rawPath)))).toBeLessThanOrEqual(26 + 3);
  });

  test("a check whose groups fit in one page costs one request, however many pages may run ahead", async () => {
    const groups = makeGroups(42);
    server = await startTestServer((request, response) => {
      serveErrorGroups(() => groups, request, response);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 8 });
    const ids: string[] = [];
    for await (const group of client.errorGroups.allForCheck("chk_1")) ids.push(group.id);
    expect(ids).toHaveLength(42);
    expect(server.requests.map((r) => pageOf(r.rawPath))).toEqual([1]);
  });

  test("stops at the first short page", async () => {
    const groups = makeGroups(250);
    server = await startTestServer((request, response) =>
      serveErrorGroups(() => groups, request, response),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 1 });
    const ids: string[] = [];
    for await (const group of client.errorGroups.allForCheck("chk_1")) ids.push(group.id);
    expect(ids).toEqual(groups.map((g) => g.id));
    expect(server.requests.map((r) => pageOf(r.rawPath))).toEqual([1, 2, 3]);
  });

  test("a group that moves to an earlier page while pages are read is yielded once", async () => {
    const groups = makeGroups(30);
    let served = 0;
    server = await startTestServer((request, response) => {
      // After page 1 is served, the last group is seen again and jumps to the front,
      // pushing one group of page 1 onto page 2.
      if (served++ === 1) groups[29] = { ...groups[29]!, lastSeen: "2026-06-01T00:00:00.000Z" };
      serveErrorGroups(() => groups, request, response);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 1 });
    const ids: string[] = [];
    for await (const group of client.errorGroups.allForCheck("chk_1", { pageSize: 10 })) {
      ids.push(group.id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id === "eg_00009")).toHaveLength(1);
  });

  test("streams: the first group arrives before later pages are fetched, and stopping early aborts the rest", async () => {
    const groups = makeGroups(2_500);
    server = await startTestServer(async (request, response) => {
      await sleep(20);
      serveErrorGroups(() => groups, request, response);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 3 });
    let taken = 0;
    for await (const _ of client.errorGroups.allForCheck("chk_1")) {
      if (++taken === 150) break;
    }
    await sleep(100);
    expect(taken).toBe(150);
    expect(server.requests.length).toBeLessThanOrEqual(5);
  });

  test("a failing page surfaces in order as the client's typed error", async () => {
    const groups = makeGroups(500);
    server = await startTestServer((request, response) => {
      if (pageOf(request.rawPath) === 3) return sendError(response, 404, "check not found");
      serveErrorGroups(() => groups, request, response);
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, concurrency: 4 });
    const ids: string[] = [];
    const error = await (async () => {
      for await (const group of client.errorGroups.allForCheck("chk_1")) ids.push(group.id);
    })().catch((thrown: unknown) => thrown);
    expect(ids).toHaveLength(200);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"GET /v1/error-groups/checks/chk_1?limit=100&page=3 failed: 404 Not Found: check not found"`,
    );
  });
});
