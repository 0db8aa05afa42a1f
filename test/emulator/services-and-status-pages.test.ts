import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { Service, StatusPage } from "../../src/api/schemas";
import { createEmulator, type Emulator } from "../../src/emulator";
import { SCHEMA_VERSION } from "../../src/emulator/database";
import { ADMIN, call, DEMO_ACCOUNT, DEMO_SERVICES, demoEmulator, NOW, OTHER_KEY } from "./helpers";

let emulator: Emulator | undefined;
afterEach(() => {
  emulator?.close();
  emulator = undefined;
});

/** Every service of a list, page by page, with the cursor each page gave. */
async function listAll(app: Emulator["app"], path: string, limit: number, key?: string) {
  const seen: { id: string }[] = [];
  let nextId: string | null = null;
  let pages = 0;
  do {
    const query = `limit=${limit}${nextId ? `&nextId=${encodeURIComponent(nextId)}` : ""}`;
    const { status, json } = await call(app, "GET", `${path}?${query}`, { key });
    expect(status).toBe(200);
    const page = json as { length: number; entries: { id: string }[]; nextId: string | null };
    expect(page.length).toBe(page.entries.length);
    expect(page.entries.length).toBeLessThanOrEqual(limit);
    seen.push(...page.entries);
    nextId = page.nextId;
    pages += 1;
  } while (nextId !== null && pages < 50);
  return { seen, pages };
}

describe("the services list", () => {
  it("lists every service of the account a page at a time, each as the reference shows it", async () => {
    emulator = demoEmulator();
    const { seen, pages } = await listAll(emulator.app, "/v1/status-pages/services", 2);
    expect(pages).toBe(3);
    expect(seen.map((service) => service.id).sort()).toEqual(Object.keys(DEMO_SERVICES).sort());
    for (const entry of seen) {
      const service = Service.parse(entry);
      expect(service).toEqual({
        id: service.id,
        name: DEMO_SERVICES[service.id],
        accountId: DEMO_ACCOUNT,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      });
    }
  });

  it("answers 20 services when no limit is given, and refuses a limit outside 1 to 100", async () => {
    emulator = createEmulator({
      now: () => NOW,
      seed: {
        accounts: [
          {
            id: "acct-many",
            apiKeys: ["many-key"],
            services: Array.from({ length: 25 }, (_, index) => ({
              id: `svc-${String(index).padStart(2, "0")}`,
              name: `Service ${index}`,
            })),
          },
        ],
      },
    });
    const first = await call(emulator.app, "GET", "/v1/status-pages/services", { key: "many-key" });
    const page = first.json as { entries: unknown[]; nextId: string | null };
    expect(page.entries).toHaveLength(20);
    expect(page.nextId).not.toBeNull();
    for (const limit of ["0", "101", "2.5", "x"]) {
      const refused = await call(emulator.app, "GET", `/v1/status-pages/services?limit=${limit}`, {
        key: "many-key",
      });
      expect(refused.status, limit).toBe(400);
    }
    const badCursor = await call(emulator.app, "GET", "/v1/status-pages/services?nextId=nope", {
      key: "many-key",
    });
    expect(badCursor.json).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: "nextId: not a cursor of this list; pass the nextId of the page before",
    });
  });

  it("reads one service, and answers 404 for one the account does not have", async () => {
    emulator = demoEmulator();
    const found = await call(emulator.app, "GET", "/v1/status-pages/services/svc-api");
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({
      id: "svc-api",
      name: "Public API",
      accountId: DEMO_ACCOUNT,
    });
    const missing = await call(emulator.app, "GET", "/v1/status-pages/services/svc-nope");
    expect(missing.json).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "service svc-nope not found",
    });
    // Another account's key reads its own service of that id, never the demo account's.
    const other = await call(emulator.app, "GET", "/v1/status-pages/services/svc-api", {
      key: OTHER_KEY,
    });
    expect(other.json).toMatchObject({ id: "svc-api", name: "Other company API" });
    const notOurs = await call(emulator.app, "GET", "/v1/status-pages/services/svc-db", {
      key: OTHER_KEY,
    });
    expect(notOurs.status).toBe(404);
  });
});

describe("the status pages", () => {
  it("lists the demo's status page with its cards and their services, and reads it by id", async () => {
    emulator = demoEmulator();
    const listed = await call(emulator.app, "GET", "/v1/status-pages");
    expect(listed.status).toBe(200);
    const list = listed.json as { length: number; entries: unknown[]; nextId: string | null };
    expect(list.length).toBe(1);
    expect(list.nextId).toBeNull();
    const page = StatusPage.parse(list.entries[0]);
    expect({
      id: page.id,
      name: page.name,
      url: page.url,
      customDomain: page.customDomain,
      defaultTheme: page.defaultTheme,
      cards: page.cards.map((card) => ({
        name: card.name,
        services: card.services.map((service) => `${service.id} (${service.name})`),
      })),
    }).toMatchInlineSnapshot(`
      {
        "cards": [
          {
            "name": "Shop",
            "services": [
              "svc-web (Web app)",
              "svc-checkout (Checkout)",
              "svc-auth (Login and SSO)",
            ],
          },
          {
            "name": "Platform",
            "services": [
              "svc-api (Public API)",
              "svc-db (Primary database)",
            ],
          },
        ],
        "customDomain": null,
        "defaultTheme": "AUTO",
        "id": "sp-acme",
        "name": "Acme status",
        "url": "acme-status",
      }
    `);
    const read = await call(emulator.app, "GET", "/v1/status-pages/sp-acme");
    expect(read.json).toEqual(list.entries[0]);
    const missing = await call(emulator.app, "GET", "/v1/status-pages/sp-nope");
    expect(missing.json).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "status page sp-nope not found",
    });
  });

  it("keeps a card's id when the seed is loaded again, and pages through many status pages", async () => {
    const seed = {
      accounts: [
        {
          id: "acct-pages",
          apiKeys: ["pages-key"],
          services: [{ id: "svc-a", name: "A" }],
          statusPages: Array.from({ length: 5 }, (_, index) => ({
            id: `sp-${index}`,
            name: `Page ${index}`,
            url: `page-${index}`,
            cards: [{ name: "All", services: ["svc-a"] }],
          })),
        },
      ],
    };
    emulator = createEmulator({ now: () => NOW, seed, adminToken: ADMIN });
    const before = await call(emulator.app, "GET", "/v1/status-pages/sp-3", { key: "pages-key" });
    emulator.control.loadSeed(seed);
    const after = await call(emulator.app, "GET", "/v1/status-pages/sp-3", { key: "pages-key" });
    expect(StatusPage.parse(after.json).cards[0]?.id).toBe(
      StatusPage.parse(before.json).cards[0]?.id,
    );
    const { seen, pages } = await listAll(emulator.app, "/v1/status-pages", 2, "pages-key");
    expect(pages).toBe(3);
    expect(seen.map((page) => page.id)).toEqual(["sp-0", "sp-1", "sp-2", "sp-3", "sp-4"]);
  });

  it("answers only id, name, url, customDomain and cards under lean answers", async () => {
    emulator = demoEmulator({ behaviour: { answers: "lean" } });
    const { json } = await call(emulator.app, "GET", "/v1/status-pages/sp-acme");
    const page = json as Record<string, unknown> & { cards: Record<string, unknown>[] };
    expect(Object.keys(page).sort()).toEqual(["cards", "customDomain", "id", "name", "url"]);
    expect(Object.keys(page.cards[0] ?? {}).sort()).toEqual(["id", "name", "services"]);
    expect((page.cards[0]?.services as object[] | undefined)?.[0]).toEqual({
      id: "svc-web",
      name: "Web app",
      accountId: DEMO_ACCOUNT,
    });
    const services = await call(emulator.app, "GET", "/v1/status-pages/services?limit=1");
    expect((services.json as { entries: object[] }).entries[0]).toEqual({
      id: "svc-api",
      name: "Public API",
      accountId: DEMO_ACCOUNT,
    });
  });

  it("answers 404 for every service and status-page read on a service with only the excerpt", async () => {
    emulator = demoEmulator({ behaviour: { referenceOperations: "not-found" } });
    for (const path of [
      "/v1/status-pages",
      "/v1/status-pages/sp-acme",
      "/v1/status-pages/services",
      "/v1/status-pages/services/svc-api",
    ]) {
      expect((await call(emulator.app, "GET", path)).status, path).toBe(404);
    }
  });
});

describe("a seed's status pages", () => {
  it("refuses a card's service the account does not declare, and a status page listed twice", () => {
    let message = "";
    try {
      createEmulator({
        seed: {
          accounts: [
            {
              id: "acct-a",
              apiKeys: ["a-key"],
              services: [{ id: "svc-api", name: "API" }],
              statusPages: [
                { id: "sp", name: "S", url: "s", cards: [{ name: "C", services: ["svc-apl"] }] },
                { id: "sp", name: "T", url: "t" },
              ],
            },
          ],
        },
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatchInlineSnapshot(`
      "seed from the seed option is not valid (2 problems):
        - accounts[0].statusPages[0].cards[0].services[0]: service svc-apl is not declared under services of account acct-a (declared: svc-api)
        - accounts[0].statusPages[1].id: duplicate status page id sp
      See examples/seed/demo.yaml for the format."
    `);
  });

  it("opens a data file of schema version 2 and adds the status pages to it", async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), "emulator-v2-")), "data.db");
    createEmulator({ dataFile, seed: "demo" }).close();
    const db = new DatabaseSync(dataFile);
    db.exec(
      "DROP TABLE status_pages; DROP TABLE status_page_cards; DROP TABLE status_page_card_services",
    );
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema_version'").run();
    db.close();
    emulator = createEmulator({ dataFile, seed: "demo" });
    const version = new DatabaseSync(dataFile)
      .prepare("SELECT value FROM meta WHERE key = 'schema_version'")
      .get();
    expect(version?.value).toBe(String(SCHEMA_VERSION));
    expect((await call(emulator.app, "GET", "/v1/status-pages")).status).toBe(200);
  });
});
