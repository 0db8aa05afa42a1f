import { afterEach, describe, expect, it } from "vitest";
import { Service, StatusPage } from "../../src/api/schemas";
import { createEmulator, type Emulator } from "../../src/emulator";
import { ADMIN, call, DEMO_ACCOUNT, demoEmulator, NOW, OTHER_KEY } from "./helpers";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let emulator: Emulator | undefined;
afterEach(() => {
  emulator?.close();
  emulator = undefined;
});

function started(): Emulator {
  emulator = demoEmulator();
  return emulator;
}

/** The demo page's body as a PUT sends it, its cards as given. */
const acmePage = (cards: object[], more: object = {}) => ({
  name: "Acme status",
  url: "acme-status",
  cards,
  ...more,
});

describe("writing services", () => {
  it("creates a service with an id the service picks, answered 200, and lists it", async () => {
    const app = started().app;
    const created = await call(app, "POST", "/v1/status-pages/services", {
      body: { name: "Status API" },
    });
    expect(created.status).toBe(200);
    const service = Service.parse(created.json);
    expect(service).toEqual({
      id: expect.stringMatching(GUID),
      name: "Status API",
      accountId: DEMO_ACCOUNT,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    const read = await call(app, "GET", `/v1/status-pages/services/${service.id}`);
    expect(read.json).toEqual(service);
    // Not idempotent: the same body again makes a second service.
    const again = await call(app, "POST", "/v1/status-pages/services", {
      body: { name: "Status API" },
    });
    expect(Service.parse(again.json).id).not.toBe(service.id);
  });

  it("renames a service, and the incidents and cards that name it show the new name", async () => {
    const app = started().app;
    const renamed = await call(app, "PUT", "/v1/status-pages/services/svc-api", {
      body: { name: "Public API v2" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id: "svc-api", name: "Public API v2" });
    const incident = await call(app, "GET", "/v1/status-pages/incidents/inc-api-errors");
    expect((incident.json as { services: object[] }).services[0]).toMatchObject({
      id: "svc-api",
      name: "Public API v2",
    });
    const page = StatusPage.parse((await call(app, "GET", "/v1/status-pages/sp-acme")).json);
    expect(page.cards[1]?.services[0]).toMatchObject({ id: "svc-api", name: "Public API v2" });
    const unknown = await call(app, "PUT", "/v1/status-pages/services/svc-nope", {
      body: { name: "x" },
    });
    expect(unknown.status).toBe(404);
  });

  it("removes a service (204): cards drop it, incidents show its id alone", async () => {
    const app = started().app;
    const removed = await call(app, "DELETE", "/v1/status-pages/services/svc-api");
    expect(removed.status).toBe(204);
    expect((await call(app, "GET", "/v1/status-pages/services/svc-api")).status).toBe(404);
    const page = StatusPage.parse((await call(app, "GET", "/v1/status-pages/sp-acme")).json);
    expect(page.cards[1]?.services.map((service) => service.id)).toEqual(["svc-db"]);
    const incident = await call(app, "GET", "/v1/status-pages/incidents/inc-api-errors");
    // The incident keeps naming it by id: nothing else of it is left to show.
    expect((incident.json as { services: object[] }).services[0]).toEqual({
      id: "svc-api",
      accountId: DEMO_ACCOUNT,
    });
    expect((await call(app, "DELETE", "/v1/status-pages/services/svc-api")).status).toBe(404);
  });

  it("refuses to remove a service still named, with serviceInUse refused, saying what names it", async () => {
    const running = started();
    running.control.setBehaviour({ serviceInUse: "refused" });
    const refused = await call(running.app, "DELETE", "/v1/status-pages/services/svc-db");
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchInlineSnapshot(`
      {
        "error": "Conflict",
        "message": "service svc-db is still named by incident inc-db-maintenance, card Platform of status page sp-acme, maintenance window 1: take it out of them first",
        "statusCode": 409,
      }
    `);
    const created = await call(running.app, "POST", "/v1/status-pages/services", {
      body: { name: "Unused" },
    });
    const unused = Service.parse(created.json).id;
    expect((await call(running.app, "DELETE", `/v1/status-pages/services/${unused}`)).status).toBe(
      204,
    );
  });

  it("refuses to remove a page a maintenance window names with serviceInUse refused, else the window drops the page and its services, and stays writable", async () => {
    const running = started();
    const { app } = running;
    running.control.setBehaviour({ serviceInUse: "refused" });
    const refused = await call(app, "DELETE", "/v1/status-pages/sp-acme");
    expect(refused.status).toBe(409);
    expect((refused.json as { message: string }).message).toMatchInlineSnapshot(
      `"status page sp-acme is still named by maintenance window 1: take it out of them first"`,
    );
    running.control.setBehaviour({ serviceInUse: "removed" });
    const other = await call(app, "POST", "/v1/status-pages", {
      body: {
        name: "Web",
        url: "web-status",
        cards: [{ name: "Web", services: [{ id: "svc-web" }] }],
      },
    });
    const otherId = StatusPage.parse(other.json).id;
    const visibility = (pageIds: string[], serviceIds: string[]) => ({
      statusPageVisibility: { enabled: true, statusPageIds: pageIds, serviceIds },
    });
    const window = await call(app, "POST", "/v1/maintenance-windows", {
      body: {
        name: "Shop upgrade",
        startsAt: "2026-12-01T02:00:00Z",
        endsAt: "2026-12-01T03:00:00Z",
        repeatUnit: null,
        ...visibility(["sp-acme", otherId], ["svc-web", "svc-checkout"]),
      },
    });
    expect(window.status, JSON.stringify(window.json)).toBe(201);

    expect((await call(app, "DELETE", "/v1/status-pages/services/svc-db")).status).toBe(204);
    expect((await call(app, "DELETE", "/v1/status-pages/sp-acme")).status).toBe(204);
    const shown = async (id: number) =>
      (
        (await call(app, "GET", `/v1/maintenance-windows/${id}`)).json as ReturnType<
          typeof visibility
        >
      ).statusPageVisibility;
    expect(await shown(1)).toMatchObject(visibility([], []).statusPageVisibility);
    expect(await shown(2)).toMatchObject(visibility([otherId], ["svc-web"]).statusPageVisibility);
    for (const id of [1, 2]) {
      const renamed = await call(app, "PUT", `/v1/maintenance-windows/${id}`, {
        body: { name: "Renamed" },
      });
      expect(renamed.status, JSON.stringify(renamed.json)).toBe(200);
    }
  });

  it("lets services share a name, or refuses a name taken with serviceNames unique, as duplicateAnswer says", async () => {
    const running = started();
    running.control.setBehaviour({ serviceNames: "unique" });
    const taken = await call(running.app, "POST", "/v1/status-pages/services", {
      body: { name: "Checkout" },
    });
    expect(taken.status).toBe(400);
    expect(taken.json).toMatchObject({
      message: 'name: service svc-checkout is already named "Checkout"',
    });
    running.control.setBehaviour({ duplicateAnswer: "conflict" });
    const renamed = await call(running.app, "PUT", "/v1/status-pages/services/svc-api", {
      body: { name: "Checkout" },
    });
    expect(renamed.status).toBe(409);
    const own = await call(running.app, "PUT", "/v1/status-pages/services/svc-checkout", {
      body: { name: "Checkout" },
    });
    expect(own.status).toBe(200);
  });
});

describe("writing status pages", () => {
  it("creates a page (201) with ids the service picks, its url lower-cased and its cards in order", async () => {
    const app = started().app;
    const created = await call(app, "POST", "/v1/status-pages", {
      body: {
        name: "Ops",
        url: "Ops-Status",
        description: "Our systems",
        defaultTheme: "DARK",
        cards: [
          { name: "Edge", services: [{ id: "svc-web" }, { id: "svc-api" }] },
          { id: "mine", name: "Data", services: [{ id: "svc-db" }] },
        ],
      },
    });
    expect(created.status).toBe(201);
    const page = StatusPage.parse(created.json);
    expect(page).toMatchObject({
      id: expect.stringMatching(GUID),
      name: "Ops",
      url: "ops-status",
      description: "Our systems",
      defaultTheme: "DARK",
      customDomain: null,
      logo: null,
    });
    expect(page.cards.map((card) => [card.name, card.services.map((s) => s.name)])).toEqual([
      ["Edge", ["Web app", "Public API"]],
      ["Data", ["Primary database"]],
    ]);
    expect(page.cards.every((card) => GUID.test(card.id))).toBe(true);
    const read = await call(app, "GET", `/v1/status-pages/${page.id}`);
    expect(read.json).toEqual(created.json);
    const unknown = await call(app, "POST", "/v1/status-pages", {
      body: { name: "x", url: "x-status", cards: [{ name: "c", services: [{ id: "svc-x" }] }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({
      message: expect.stringMatching(/^cards\[0\]\.services: svc-x is not a service/),
    });
  });

  it("refuses a url already taken, whatever its case and whose page it is, 400 or 409 as duplicateAnswer says", async () => {
    const running = createEmulator({
      adminToken: ADMIN,
      now: () => NOW,
      seed: {
        accounts: [
          { id: DEMO_ACCOUNT, apiKeys: ["demo-key"], services: [{ id: "svc-a", name: "A" }] },
          {
            id: "acct-other",
            apiKeys: [OTHER_KEY],
            statusPages: [{ id: "sp-theirs", name: "Theirs", url: "theirs" }],
          },
        ],
      },
    });
    emulator = running;
    const create = (url: string, key?: string) =>
      call(running.app, "POST", "/v1/status-pages", { key, body: { name: "P", url, cards: [] } });
    const first = await create("mine");
    expect(first.status).toBe(201);
    expect((await create("MINE")).json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "url: mine is already taken by status page ${StatusPage.parse(first.json).id}",
        "statusCode": 400,
      }
    `);
    running.control.setBehaviour({ duplicateAnswer: "conflict" });
    const theirs = await create("Theirs");
    expect(theirs.status).toBe(409);
    expect(theirs.json).toMatchObject({ message: "url: theirs is already taken by another page" });
    const id = StatusPage.parse(first.json).id;
    const moved = await call(running.app, "PUT", `/v1/status-pages/${id}`, {
      body: { name: "P", url: "theirs", cards: [] },
    });
    expect(moved.status).toBe(409);
    const kept = await call(running.app, "PUT", `/v1/status-pages/${id}`, {
      body: { name: "P2", url: "Mine", cards: [] },
    });
    expect(kept.status).toBe(200);
  });

  it("changes a page as a whole: a card sent with its id keeps it, one without is new, one left out goes", async () => {
    const running = started();
    const before = StatusPage.parse(
      (await call(running.app, "GET", "/v1/status-pages/sp-acme")).json,
    );
    const [shop, platform] = before.cards;
    const changed = await call(running.app, "PUT", "/v1/status-pages/sp-acme", {
      body: acmePage([
        { id: platform?.id, name: "Core platform", services: [{ id: "svc-db" }] },
        { name: "Status", services: [{ id: "svc-auth" }] },
      ]),
    });
    expect(changed.status).toBe(200);
    const page = StatusPage.parse(changed.json);
    expect(page.cards.map((card) => [card.id, card.name])).toEqual([
      [platform?.id, "Core platform"],
      [expect.stringMatching(GUID), "Status"],
    ]);
    expect(page.cards.map((card) => card.id)).not.toContain(shop?.id);
    expect(page.cards[0]?.services.map((service) => service.id)).toEqual(["svc-db"]);
    const read = await call(running.app, "GET", "/v1/status-pages/sp-acme");
    expect(read.json).toEqual(changed.json);
  });

  it("clears on a change the fields the body leaves out, and refuses a card id that is not the page's", async () => {
    const running = started();
    const first = await call(running.app, "PUT", "/v1/status-pages/sp-acme", {
      body: acmePage([], { description: "All systems", customDomain: "status.acme.test" }),
    });
    expect(first.json).toMatchObject({
      description: "All systems",
      customDomain: "status.acme.test",
    });
    const second = await call(running.app, "PUT", "/v1/status-pages/sp-acme", {
      body: acmePage([]),
    });
    expect(second.json).toMatchObject({ description: null, customDomain: null, cards: [] });
    const stranger = await call(running.app, "PUT", "/v1/status-pages/sp-acme", {
      body: acmePage([{ id: "card-elsewhere", name: "x", services: [] }]),
    });
    expect(stranger.json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "cards[0].id: card-elsewhere is not a card of this status page; its cards: none",
        "statusCode": 400,
      }
    `);
  });

  it("removes a page (204) with its subscriptions, and lists a page's subscribers from the seed", async () => {
    const running = createEmulator({
      now: () => NOW,
      seed: {
        accounts: [
          {
            id: DEMO_ACCOUNT,
            apiKeys: ["demo-key"],
            statusPages: [{ id: "sp-1", name: "One", url: "one", subscribers: 3 }],
          },
        ],
      },
    });
    emulator = running;
    const listed = await call(running.app, "GET", "/v1/status-pages/sp-1/subscriptions");
    expect(listed.status).toBe(200);
    expect(listed.json).toHaveLength(3);
    expect((listed.json as object[])[0]).toEqual({
      id: expect.stringMatching(GUID),
      type: "EMAIL",
      email: "subscriber-1@example.com",
      status: "VERIFIED",
      created_at: NOW.toISOString(),
    });
    expect((await call(running.app, "DELETE", "/v1/status-pages/sp-1")).status).toBe(204);
    expect((await call(running.app, "GET", "/v1/status-pages/sp-1")).status).toBe(404);
    expect((await call(running.app, "GET", "/v1/status-pages/sp-1/subscriptions")).status).toBe(
      404,
    );
    expect((await call(running.app, "DELETE", "/v1/status-pages/sp-1")).status).toBe(404);
  });
});

describe("the writes' auth, errors and counts", () => {
  it("answers 401 without a key, 404 for another account's page and service, 429 past the rate window, and counts each write", async () => {
    const running = started();
    const body = { name: "P", url: "p-status", cards: [] };
    expect((await call(running.app, "POST", "/v1/status-pages", { key: null, body })).status).toBe(
      401,
    );
    expect(
      (await call(running.app, "DELETE", "/v1/status-pages/sp-acme", { key: OTHER_KEY })).status,
    ).toBe(404);
    expect(
      (await call(running.app, "DELETE", "/v1/status-pages/services/svc-db", { key: OTHER_KEY }))
        .status,
    ).toBe(404);
    expect(
      (
        await call(running.app, "POST", "/v1/status-pages", {
          body,
          headers: { "x-service-account": "acct-other" },
        })
      ).status,
    ).toBe(403);
    running.control.resetStats();
    running.control.setBehaviour({ rateWindow: { limit: 1, seconds: 60 } });
    expect((await call(running.app, "POST", "/v1/status-pages", { body })).status).toBe(201);
    expect((await call(running.app, "PUT", "/v1/status-pages/sp-acme", { body })).status).toBe(429);
    expect(running.control.stats().byOperation).toMatchObject({
      createStatusPage: { total: 1, byStatus: { "201": 1 } },
      updateStatusPage: { total: 1, byStatus: { "429": 1 } },
    });
  });
});
