import { afterEach, describe, expect, it } from "vitest";
import { cleanErrorMessage, type Emulator, errorHash } from "../../src/emulator";
import { ADMIN, call, demoEmulator, NOW } from "./helpers";

let emulator: Emulator;
afterEach(() => emulator?.close());

const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();
type Group = {
  id: string;
  lastSeen: string;
  firstSeen: string;
  cleanedErrorMessage: string;
  rawErrorMessage: string;
  errorHash: string;
};

describe("error grouping", () => {
  it("cleans numbers, UUIDs, hex ids, timestamps, query strings and ids in paths", () => {
    expect(
      [
        "Timeout of 30000ms exceeded for https://api.example.com/orders/8812?expand=items",
        "Request 3f2a9c1b-1111-4222-8333-abcdefabcdef failed at 2026-11-01T10:00:00.123Z",
        "GET /v1/users/u_12ab34/orders returned 500",
        "Connection to 10.0.0.12:5432 refused (pid 0x1f3e, trace deadbeef12)",
      ].map(cleanErrorMessage),
    ).toMatchInlineSnapshot(`
      [
        "Timeout of <n>ms exceeded for https://api.example.com/orders/<id>?<query>",
        "Request <uuid> failed at <timestamp>",
        "GET /v1/users/<id>/orders returned <n>",
        "Connection to <ip>:<n> refused (pid <hex>, trace <hex>)",
      ]
    `);
  });

  it("puts the same error with different ids and timestamps in one group", () => {
    emulator = demoEmulator();
    const first = emulator.control.recordCheckResult("acct-demo", "chk-new", {
      at: "-10m",
      error:
        "Request 3f2a9c1b-1111-4222-8333-abcdefabcdef to https://x.test/a/991?t=1 failed at 2026-11-01T10:00:00Z after 812ms",
    });
    const second = emulator.control.recordCheckResult("acct-demo", "chk-new", {
      at: "-5m",
      error:
        "Request 0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b to https://x.test/a/17?t=2 failed at 2026-11-02T11:30:12.5Z after 77ms",
    });
    expect(first.errorGroupId).not.toBeNull();
    expect(second.errorGroupId).toBe(first.errorGroupId);
  });

  it("puts different errors in different groups, and the same error of another check in its own", () => {
    emulator = demoEmulator();
    const record = (checkId: string, error: string) =>
      emulator.control.recordCheckResult("acct-demo", checkId, { error }).errorGroupId;
    const timeout = record("chk-new", "Timeout after 30000ms");
    expect(record("chk-new", "Connection refused")).not.toBe(timeout);
    expect(record("chk-new", "Timeout before 30000ms")).not.toBe(timeout);
    expect(record("chk-other-new", "Timeout after 30000ms")).not.toBe(timeout);
  });

  it("hashes the cleaned message with SHA-256", async () => {
    emulator = demoEmulator();
    const { json } = await call(emulator.app, "GET", "/v1/error-groups/checks/chk-api");
    for (const group of json as Group[]) {
      expect(group.errorHash).toBe(errorHash(group.cleanedErrorMessage));
      expect(group.errorHash).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe("GET /v1/error-groups/checks/{checkId}", () => {
  it("lists the seeded groups by lastSeen, newest first, with first and last seen", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(emulator.app, "GET", "/v1/error-groups/checks/chk-api");
    expect(status).toBe(200);
    const groups = json as Group[];
    expect(
      groups.map((group) => [group.cleanedErrorMessage, group.firstSeen, group.lastSeen]),
    ).toEqual([
      [
        "Assertion failed: response.body.items.length expected > <n>, got <n> at <timestamp>",
        ago(140),
        ago(110),
      ],
      ["<n> Bad Gateway from upstream <ip>:<n> (request <uuid>)", ago(165), ago(155)],
      [
        "Timeout of <n>ms exceeded for https://api.example.com/orders/<id>?<query>",
        ago(180),
        ago(160),
      ],
    ]);
    expect(groups[2]?.rawErrorMessage).toBe(
      "Timeout of 30000ms exceeded for https://api.example.com/orders/10244?expand=items",
    );
    expect(groups[0]).toMatchObject({
      checkId: "chk-api",
      archivedUntilNextEvent: false,
      rootCauseAnalyses: [],
    });
  });

  it("pages with limit and page, ties ordered by id", async () => {
    emulator = demoEmulator();
    emulator.control.recordCheckResults(
      "acct-demo",
      Array.from({ length: 25 }, (_, i) => ({
        checkId: "chk-paged",
        at: NOW,
        error: `failure kind ${"abcdefghijklmnopqrstuvwxy"[i]}q`,
      })),
    );
    const page = async (query: string) =>
      (await call(emulator.app, "GET", `/v1/error-groups/checks/chk-paged?${query}`))
        .json as Group[];
    const all = await page("limit=100");
    expect(all).toHaveLength(25);
    expect(all.map((group) => group.id)).toEqual(all.map((group) => group.id).sort());
    expect(await page("")).toEqual(all.slice(0, 10));
    expect(await page("page=3")).toEqual(all.slice(20, 25));
    expect(await page("limit=7&page=2")).toEqual(all.slice(7, 14));
    expect(await page("page=9")).toEqual([]);
  });

  it("serves 10,000 groups of one check, created in bulk", async () => {
    emulator = demoEmulator();
    const created = await call(
      emulator.app,
      "POST",
      "/_control/accounts/acct-demo/checks/chk-bulk/error-groups",
      {
        key: ADMIN,
        body: { count: 10_000 },
      },
    );
    expect(created).toMatchObject({ status: 201, json: { created: 10_000 } });
    const last = await call(
      emulator.app,
      "GET",
      "/v1/error-groups/checks/chk-bulk?limit=100&page=100",
    );
    expect(last.json).toHaveLength(100);
    const beyond = await call(
      emulator.app,
      "GET",
      "/v1/error-groups/checks/chk-bulk?limit=100&page=101",
    );
    expect(beyond.json).toEqual([]);
  });

  it.each([
    ["limit=0", "limit: Too small: expected number to be >=1"],
    ["limit=101", "limit: Too big: expected number to be <=100"],
    ["page=0", "page: Too small: expected number to be >=1"],
    ["page=1.5", "page: Invalid input: expected int, received number"],
    ["limit=1&limit=2", "limit: Invalid input: expected number, received array"],
  ])("answers 400 for %s", async (query, message) => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "GET",
      `/v1/error-groups/checks/chk-api?${query}`,
    );
    expect(status).toBe(400);
    expect((json as { message: string }).message).toBe(`invalid query: ${message}`);
  });

  it("answers 404 for a check the account does not have", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(emulator.app, "GET", "/v1/error-groups/checks/chk-x");
    expect(status).toBe(404);
    expect(json).toEqual({ statusCode: 404, error: "Not Found", message: "check chk-x not found" });
  });
});

describe("GET /v1/error-groups/{id}", () => {
  it("retrieves one group by id, and shows archiving until the next result", async () => {
    emulator = demoEmulator();
    const [first] = (
      await call(emulator.app, "GET", "/v1/error-groups/checks/chk-checkout?limit=1")
    ).json as Group[];
    const one = await call(emulator.app, "GET", `/v1/error-groups/${first!.id}`);
    expect(one).toMatchObject({ status: 200, json: first });
    const archived = await call(
      emulator.app,
      "POST",
      `/_control/accounts/acct-demo/error-groups/${first!.id}/archive`,
      { key: ADMIN },
    );
    expect(archived.json).toMatchObject({ archivedUntilNextEvent: true });
    emulator.control.recordCheckResult("acct-demo", "chk-checkout", {
      error: first!.rawErrorMessage,
    });
    expect((await call(emulator.app, "GET", `/v1/error-groups/${first!.id}`)).json).toMatchObject({
      archivedUntilNextEvent: false,
      lastSeen: NOW.toISOString(),
    });
  });

  it("answers 404 for an unknown id", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(emulator.app, "GET", "/v1/error-groups/eg_nope");
    expect(status).toBe(404);
    expect(json).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "error group eg_nope not found",
    });
  });
});
