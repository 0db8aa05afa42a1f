import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  createClient,
  ForbiddenError,
  type MonitoringClient,
  NetworkError,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  UnauthorizedError,
} from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { service } from "./helpers";

/** The API client from src/api against the emulator over real HTTP. */
let running: RunningEmulator;
let client: MonitoringClient;
const noRetry = { limit: 0 };

beforeAll(async () => {
  // The first test reads the update a status change posts.
  running = await startEmulator({ port: 0, putStatus: "posts-update" });
  running.emulator.control.generateErrorGroups("acct-demo", "chk-bulk", 2_500);
  client = createClient({
    baseUrl: running.url,
    apiKey: running.demo.apiKey,
    accountId: running.demo.accountId,
  });
});
afterAll(() => running.close());

const clientWith = (options: Partial<Parameters<typeof createClient>[0]>) =>
  createClient({ baseUrl: running.url, apiKey: "demo-key", retry: noRetry, ...options });

describe("incidents", () => {
  it("updates an incident and reads the update it appended", async () => {
    const incident = await client.incidents.update("inc-api-errors", {
      name: "Elevated error rate on the public API",
      severity: "CRITICAL",
      services: [service("svc-api"), service("svc-web")],
      lastUpdateStatus: "RESOLVED",
    });
    expect(incident).toMatchObject({
      id: "inc-api-errors",
      severity: "CRITICAL",
      lastUpdateStatus: "RESOLVED",
    });
    const updates = await client.incidents.listUpdates("inc-api-errors");
    expect(updates[0]).toMatchObject({
      description: "Status changed to RESOLVED",
      status: "RESOLVED",
    });
  });

  it("throws NotFoundError for an unknown incident and BadRequestError for an unknown service", async () => {
    await expect(client.incidents.listUpdates("inc-x")).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      client.incidents.update("inc-x", {
        name: "n",
        severity: "MINOR",
        services: [service("svc-api")],
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      client.incidents.update("inc-api-errors", {
        name: "n",
        severity: "MINOR",
        services: [service("svc-nope")],
      }),
    ).rejects.toBeInstanceOf(BadRequestError);
  });

  it("stops a body the spec forbids before it is sent", async () => {
    await expect(
      client.incidents.update("inc-api-errors", {
        name: "x".repeat(256),
        severity: "MINOR",
        services: [service("svc-api")],
      }),
    ).rejects.toBeInstanceOf(RequestValidationError);
  });
});

describe("heartbeats", () => {
  it("lists events with stats, honouring limit 1..10", async () => {
    const [result] = await client.heartbeats.listEvents("hb-billing-sync", { limit: 10 });
    expect(result?.events?.length).toBeGreaterThan(0);
    expect(result?.stats?.last24Hours?.totalEntitiesCurrentPeriod).toBe(13);
    const [one] = await client.heartbeats.listEvents("hb-billing-sync", { limit: 1 });
    expect(one?.events).toHaveLength(1);
    await expect(
      client.heartbeats.listEvents("hb-billing-sync", { limit: 11 }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.heartbeats.listEvents("hb-missing")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("walks every event of a window past the 10-event cap", async () => {
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 25; i++) {
      running.emulator.control.recordHeartbeatPing("acct-demo", "hb-walk", {
        ok: i % 2 === 0,
        at: new Date(start + i * 60_000),
      });
    }
    const { events } = await client.heartbeats.eventsBetween(
      "hb-walk",
      new Date(start),
      new Date(),
    );
    expect(events).toHaveLength(25);
    expect(new Set(events.map((event) => event.id)).size).toBe(25);
  });
});

describe("error groups", () => {
  it("pages through a check's groups with limit 1..100 and gets one by id", async () => {
    const page = await client.errorGroups.listForCheck("chk-bulk", { limit: 100, page: 25 });
    expect(page).toHaveLength(100);
    expect(await client.errorGroups.listForCheck("chk-bulk", { limit: 100, page: 26 })).toEqual([]);
    expect(await client.errorGroups.get(page[0]!.id)).toEqual(page[0]);
    await expect(
      client.errorGroups.listForCheck("chk-bulk", { limit: 101 }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.errorGroups.get("eg_missing")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("streams all 2,500 groups of one check, each once", async () => {
    const ids = new Set<string>();
    for await (const group of client.errorGroups.allForCheck("chk-bulk")) ids.add(group.id);
    expect(ids.size).toBe(2_500);
  });
});

describe("auth and faults", () => {
  it("throws UnauthorizedError for a wrong key and ForbiddenError for another account", async () => {
    await expect(
      clientWith({ apiKey: "wrong" }).errorGroups.listForCheck("chk-api"),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(
      clientWith({ accountId: "acct-other" }).errorGroups.listForCheck("chk-api"),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      clientWith({ apiKey: "other-key" }).incidents.listUpdates("inc-api-errors"),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("surfaces 429, 503 and resets as typed errors, and recovers by retrying", async () => {
    const control = running.emulator.control;
    try {
      control.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 0 });
      await expect(clientWith({}).errorGroups.listForCheck("chk-api")).rejects.toBeInstanceOf(
        RateLimitError,
      );
      control.setFaults({ failRate: 1 });
      await expect(clientWith({}).errorGroups.listForCheck("chk-api")).rejects.toBeInstanceOf(
        ServerError,
      );
      control.setFaults({ resetRate: 1 });
      await expect(clientWith({}).errorGroups.listForCheck("chk-api")).rejects.toBeInstanceOf(
        NetworkError,
      );
      control.setFaults({ rateLimitEvery: 2, retryAfterSeconds: 0 });
      const retrying = clientWith({ retry: { limit: 3, delay: () => 1 } });
      for (let i = 0; i < 4; i++)
        expect(await retrying.errorGroups.listForCheck("chk-api")).toHaveLength(3);
    } finally {
      control.setFaults({});
    }
  });
});
