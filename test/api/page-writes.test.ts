import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  createClient,
  type MonitoringClient,
  RateLimitError,
  RequestValidationError,
} from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { API_KEY } from "../support/api-fixtures";
import { sendJson, serversClosedAfterEach } from "../support/http-server";

const KEY = "page-writes-key";
const ACCOUNT = "acct-pages";

let running: RunningEmulator;
let client: MonitoringClient;

beforeAll(async () => {
  running = await startEmulator({
    seed: {
      accounts: [
        {
          id: ACCOUNT,
          apiKeys: [KEY],
          services: [
            { id: "svc-a", name: "A" },
            { id: "svc-b", name: "B" },
          ],
          statusPages: [
            {
              id: "sp-main",
              name: "Main",
              url: "main-status",
              cards: [{ name: "All", services: ["svc-a", "svc-b"] }],
              subscribers: 2,
            },
          ],
        },
      ],
    },
  });
  client = createClient({
    baseUrl: running.url,
    apiKey: KEY,
    accountId: ACCOUNT,
    retry: { delay: () => 1 },
  });
});
afterAll(() => running?.close());
afterEach(() => {
  running.emulator.control.setFaults({});
});

describe("the client's writes of services and status pages, against the emulator", () => {
  test("creates, renames and removes a service, the id being the one the service picked", async () => {
    const created = await client.services.create({ name: "Search" });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).toMatchObject({ name: "Search", accountId: ACCOUNT });
    const renamed = await client.services.rename(created.id, { name: "Site search" });
    expect(renamed).toMatchObject({ id: created.id, name: "Site search" });
    await client.services.remove(created.id);
    await expect(client.services.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  test("creates a page, changes it as a whole keeping a card's id, lists its subscribers and removes it", async () => {
    const page = await client.statusPages.create({
      name: "Ops",
      url: "OPS-status",
      cards: [{ name: "Edge", services: [{ id: "svc-a" }] }],
    });
    expect(page.url).toBe("ops-status");
    const edge = page.cards[0]?.id;
    const changed = await client.statusPages.replace(page.id, {
      name: "Ops",
      url: "ops-status",
      cards: [
        { name: "Data", services: [{ id: "svc-b" }] },
        { id: edge, name: "Edge", services: [{ id: "svc-a" }, { id: "svc-b" }] },
      ],
    });
    expect(changed.cards.map((card) => card.name)).toEqual(["Data", "Edge"]);
    expect(changed.cards[1]?.id).toBe(edge);
    expect((await client.statusPages.subscriptions(page.id)).entries).toEqual([]);
    const seeded = await client.statusPages.subscriptions("sp-main");
    expect(seeded.entries.map((entry) => entry.email)).toEqual([
      "subscriber-1@example.com",
      "subscriber-2@example.com",
    ]);
    await client.statusPages.remove(page.id);
    await expect(client.statusPages.get(page.id)).rejects.toMatchObject({ status: 404 });
  });

  test("checks every id that becomes a path and every body before anything is sent", async () => {
    const before = running.emulator.control.stats().total;
    await expect(client.services.rename("../svc-a", { name: "x" })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(client.statusPages.remove("sp main")).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(client.statusPages.subscriptions("")).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    const refused = client.statusPages.create({ name: "P", url: "not a label", cards: [] });
    await expect(refused).rejects.toThrowErrorMatchingInlineSnapshot(`
      [RequestValidationError: statusPages.create refused before sending (POST /v1/status-pages):
      ✖ must be one subdomain label: letters, digits and inner hyphens, at most 63 characters
        → at body.url]
    `);
    expect(running.emulator.control.stats().total).toBe(before);
  });

  test("sends a create once though it was answered 429 after it was made, and retries a rename's 429", async () => {
    running.emulator.control.setFaults({ throttledAfterWriteRate: 1, retryAfterSeconds: 0 });
    running.emulator.control.resetStats();
    await expect(client.services.create({ name: "Once" })).rejects.toBeInstanceOf(RateLimitError);
    expect(running.emulator.control.stats().byOperation.createService?.total).toBe(1);
    const made = (await client.services.list({ limit: 100 })).entries;
    expect(made.filter((service) => service.name === "Once")).toHaveLength(1);
    running.emulator.control.setFaults({ rateLimitEvery: 2, retryAfterSeconds: 0 });
    running.emulator.control.resetStats();
    await client.services.get("svc-a");
    await expect(client.services.rename("svc-a", { name: "A" })).resolves.toMatchObject({
      name: "A",
    });
    expect(running.emulator.control.stats().byOperation.renameService?.byStatus).toEqual({
      "200": 1,
      "429": 1,
    });
  });
});

describe("the client reading odd answers of the writes", () => {
  const serve = serversClosedAfterEach();

  test("takes a page with an unknown theme, null and missing fields and keys it does not know", async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 201, {
        id: "sp-1",
        url: "ops",
        defaultTheme: "SEPIA",
        updated_at: null,
        description: null,
        brandNew: { nested: true },
        cards: [{ id: "c-1", name: null, services: [{ id: "svc-1", updated_at: null }] }],
      }),
    );
    const odd = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const page = await odd.statusPages.create({ name: "Ops", url: "ops", cards: [] });
    expect(page).toMatchObject({ id: "sp-1", defaultTheme: "SEPIA", cards: [{ id: "c-1" }] });
    expect(server.requests).toHaveLength(1);
  });

  test("takes a created service with only its id, a null updated_at and a key it does not know", async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { id: "svc-9", updated_at: null, tier: "gold" }),
    );
    const odd = createClient({ baseUrl: server.url, apiKey: API_KEY });
    await expect(odd.services.create({ name: "Search" })).resolves.toEqual({
      id: "svc-9",
      updated_at: null,
    });
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({ name: "Search" });
  });

  test("reads subscriptions as a plain array or as entries, leaving out an entry without an id", async () => {
    let envelope = false;
    const server = await serve((_request, response) => {
      const entries = [{ id: "sub-1", type: "SMS", status: "PENDING_NEW" }, { email: "x@y.z" }];
      sendJson(response, 200, envelope ? { entries, length: 2 } : entries);
    });
    const odd = createClient({ baseUrl: server.url, apiKey: API_KEY });
    for (const shape of [false, true]) {
      envelope = shape;
      const read = await odd.statusPages.subscriptions("sp-1");
      expect(read.entries).toEqual([{ id: "sub-1", type: "SMS", status: "PENDING_NEW" }]);
      expect(read.skipped).toMatchObject([{ index: 1, id: undefined }]);
    }
  });
});
