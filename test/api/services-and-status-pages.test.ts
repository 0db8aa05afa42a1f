import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  createClient,
  type MonitoringClient,
  NotFoundError,
  PagingError,
  RequestValidationError,
} from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { API_KEY } from "../support/api-fixtures";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

const KEY = "services-test-key";
const ACCOUNT = "acct-services";
const SERVICES = Array.from({ length: 7 }, (_, index) => ({
  id: `svc-${index}`,
  name: `Service ${index}`,
}));

let running: RunningEmulator;
let client: MonitoringClient;

beforeAll(async () => {
  running = await startEmulator({
    seed: {
      accounts: [
        {
          id: ACCOUNT,
          apiKeys: [KEY],
          services: SERVICES,
          statusPages: [
            {
              id: "sp-main",
              name: "Main",
              url: "main-status",
              customDomain: "status.example.com",
              cards: [
                { name: "Front", services: ["svc-0", "svc-1"] },
                { name: "Back", services: ["svc-6"] },
              ],
            },
            { id: "sp-empty", name: "Empty", url: "empty-status" },
          ],
        },
      ],
    },
  });
  client = createClient({ baseUrl: running.url, apiKey: KEY, accountId: ACCOUNT });
});
afterAll(() => running?.close());

describe("the services and status pages against the emulator", () => {
  test("walks every service in pages of the size asked for, each once", async () => {
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const page of client.services.pages({ pageSize: 3 })) {
      sizes.push(page.entries.length);
      ids.push(...page.entries.map((service) => service.id));
      expect(page.skipped).toEqual([]);
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(ids.sort()).toEqual(SERVICES.map((service) => service.id).sort());
  });

  test("reads one service and one status page, and a missing one is a NotFoundError", async () => {
    expect(await client.services.get("svc-6")).toMatchObject({
      id: "svc-6",
      name: "Service 6",
      accountId: ACCOUNT,
    });
    const page = await client.statusPages.get("sp-main");
    expect(page.customDomain).toBe("status.example.com");
    expect(page.cards.map((card) => [card.name, card.services.map((s) => s.id)])).toEqual([
      ["Front", ["svc-0", "svc-1"]],
      ["Back", ["svc-6"]],
    ]);
    await expect(client.statusPages.get("sp-nope")).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.services.get("svc-nope")).rejects.toBeInstanceOf(NotFoundError);
  });

  test("lists the status pages a page at a time", async () => {
    const first = await client.statusPages.list({ limit: 1 });
    expect(first.entries.map((page) => page.id)).toEqual(["sp-empty"]);
    expect(first.nextId).not.toBeNull();
    const second = await client.statusPages.list({ limit: 1, nextId: first.nextId ?? "" });
    expect(second.entries.map((page) => page.id)).toEqual(["sp-main"]);
    expect(second.nextId).toBeNull();
  });

  test("refuses, unsent, a limit outside 1 to 100 and an id that is no path segment", async () => {
    const before = running.emulator.control.stats().total;
    await expect(client.services.list({ limit: 101 })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(client.statusPages.pages({ pageSize: 0 }).next()).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(client.statusPages.get("../incidents")).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(client.services.get("")).rejects.toBeInstanceOf(RequestValidationError);
    expect(running.emulator.control.stats().total).toBe(before);
  });
});

describe("the services and status pages from a server that breaks the contract", () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  test("an entry the contract refuses is kept apart with its id, and the others are read", async () => {
    const server = await startTestServer((_request, response) =>
      sendJson(response, 200, {
        length: 2,
        entries: [
          { id: "sp-1", name: "One", cards: [{ id: "c", services: [{ id: "svc-a" }] }] },
          { id: "sp-2", name: "Two", cards: "none" },
        ],
        nextId: null,
      }),
    );
    servers.push(server);
    const broken = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const page = await broken.statusPages.list();
    expect(page.entries.map((entry) => entry.id)).toEqual(["sp-1"]);
    expect(page.skipped).toEqual([
      { index: 1, id: "sp-2", name: "Two", problem: expect.stringContaining("cards") },
    ]);
  });

  test("a services list that hands back a cursor it gave before stops with a PagingError", async () => {
    const server = await startTestServer((_request, response) =>
      sendJson(response, 200, { length: 1, entries: [{ id: "svc-a" }], nextId: "same" }),
    );
    servers.push(server);
    const looping = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const walk = async () => {
      for await (const _ of looping.services.pages()) {
        // Reading every page is the point.
      }
    };
    await expect(walk()).rejects.toBeInstanceOf(PagingError);
    expect(server.requests).toHaveLength(2);
  });
});
