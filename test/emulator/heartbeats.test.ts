import { afterEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator";
import { nameUuid } from "../../src/emulator/name-uuid";
import { call, demoEmulator, NOW } from "./helpers";

let emulator: Emulator;
afterEach(() => emulator?.close());

const ago = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const events = (json: unknown) =>
  (json as { events: { id: string; state: string; timestamp: string }[] }[])[0]?.events ?? [];

describe("GET /v1/checks/heartbeats/{checkId}/events", () => {
  it("answers one result with the state changes of the last day, newest first, and computed stats", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "GET",
      "/v1/checks/heartbeats/hb-billing-sync/events",
    );
    expect(status).toBe(200);
    expect(json).toHaveLength(1);
    expect(events(json).map((event) => [event.state, event.timestamp])).toEqual([
      ["RECEIVED", ago(8)],
      ["FAILING", ago(10)],
      ["RECEIVED", ago(12)],
    ]);
    expect(events(json)[0]).toMatchObject({ source: "k8s-cronjob", userAgent: "billing-sync/2.5" });
    expect((json as { stats: unknown }[])[0]?.stats).toEqual({
      // 13 pings in the last 24 h, 2 of them not ok; the 24 h before hold none.
      last24Hours: {
        successRatio: { currentPeriod: 84.62, previousPeriod: 0 },
        totalEntitiesCurrentPeriod: 13,
      },
      // 14 pings in the last 7 days (12 ok); the 7 days before hold 2, both ok.
      last7Days: {
        successRatio: { currentPeriod: 85.71, previousPeriod: 100 },
        totalEntitiesCurrentPeriod: 14,
      },
    });
  });

  it("derives LATE once no ping came within period plus grace, and GRACE at the end of the period", async () => {
    emulator = demoEmulator();
    const { json } = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-nightly-backup/events?startTime=${ago(25)}`,
    );
    // The last ping, the fifth of the seed, came 2 d 30 min ago; the period is 1 d, grace 1 h.
    expect(events(json)).toEqual([
      {
        id: nameUuid("acct-demo/hb-nightly-backup/late/5"),
        state: "LATE",
        timestamp: ago(23.5),
        source: "missed: no ping within 1d + 1h grace",
        userAgent: "incident-sync-emulator",
      },
      {
        id: nameUuid("acct-demo/hb-nightly-backup/grace/5"),
        state: "GRACE",
        timestamp: ago(24.5),
        source: "overdue: no ping within 1d, in the 1h grace period",
        userAgent: "incident-sync-emulator",
      },
    ]);
  });

  it("takes startTime and endTime as an inclusive window", async () => {
    emulator = demoEmulator();
    const at = ago(10);
    const { json } = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-billing-sync/events?startTime=${at}&endTime=${at}`,
    );
    expect(events(json).map((event) => event.state)).toEqual(["FAILING"]);
  });

  it("defaults startTime to one day before the given endTime", async () => {
    emulator = demoEmulator();
    const { json } = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-billing-sync/events?endTime=${encodeURIComponent(ago(9))}`,
    );
    expect(events(json).map((event) => event.timestamp)).toEqual([ago(10), ago(12)]);
  });

  it("accepts plain dates and date-times with an offset", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-billing-sync/events?startTime=2026-10-01&endTime=${encodeURIComponent("2026-11-03T13:00:00+01:00")}`,
    );
    expect(status).toBe(200);
    expect(events(json)).toHaveLength(10);
  });

  it("returns at most limit events, default 10", async () => {
    emulator = demoEmulator();
    const wide = "startTime=2026-10-01T00:00:00Z";
    // hb-billing-sync has 13 state changes: three gaps of days (RECEIVED, GRACE, LATE each),
    // then RECEIVED, FAILING and RECEIVED in the last day.
    const all = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-billing-sync/events?${wide}`,
    );
    expect(events(all.json).map((event) => event.state)).toEqual([
      "RECEIVED",
      "FAILING",
      "RECEIVED",
      "LATE",
      "GRACE",
      "RECEIVED",
      "LATE",
      "GRACE",
      "RECEIVED",
      "LATE",
    ]);
    const one = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-billing-sync/events?limit=1`,
    );
    expect(events(one.json).map((event) => event.timestamp)).toEqual([ago(8)]);
    const three = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-billing-sync/events?${wide}&limit=3`,
    );
    expect(events(three.json)).toEqual(events(all.json).slice(0, 3));
  });

  it("orders events with the same timestamp by id, descending", async () => {
    emulator = demoEmulator();
    const at = ago(1);
    emulator.control.recordHeartbeatPing("acct-demo", "hb-new", { at, ok: false });
    emulator.control.recordHeartbeatPing("acct-demo", "hb-new", { at, ok: true });
    const { json } = await call(emulator.app, "GET", "/v1/checks/heartbeats/hb-new/events");
    const listed = events(json);
    expect(listed.map((event) => event.state).sort()).toEqual(["FAILING", "RECEIVED"]);
    expect(listed[0]!.id > listed[1]!.id).toBe(true);
  });

  it("gives the same events the same UUIDs on every read", async () => {
    emulator = demoEmulator();
    const read = async () =>
      events(
        (
          await call(
            emulator.app,
            "GET",
            "/v1/checks/heartbeats/hb-billing-sync/events?startTime=2026-10-01",
          )
        ).json,
      ).map((event) => event.id);
    const first = await read();
    expect(first).toHaveLength(10);
    expect(await read()).toEqual(first);
    emulator.close();
    emulator = demoEmulator();
    expect(await read()).toEqual(first);
  });

  it.each([
    ["limit=0", "limit: Too small: expected number to be >=1"],
    ["limit=11", "limit: Too big: expected number to be <=10"],
    ["limit=2.5", "limit: Invalid input: expected int, received number"],
    ["limit=ten", "limit: Invalid input: expected number, received string"],
    ["startTime=yesterday", "startTime: Invalid input"],
    ["since=2026-11-01", 'query: Unrecognized key: "since"'],
  ])("answers 400 for %s", async (query, message) => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "GET",
      `/v1/checks/heartbeats/hb-billing-sync/events?${query}`,
    );
    expect(status).toBe(400);
    expect((json as { message: string }).message).toBe(`invalid query: ${message}`);
  });

  it("answers 400 when startTime is after endTime", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "GET",
      "/v1/checks/heartbeats/hb-billing-sync/events?startTime=2026-11-03T00:00:00Z&endTime=2026-11-02T00:00:00Z",
    );
    expect(status).toBe(400);
    expect(json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "startTime 2026-11-03T00:00:00.000Z is after endTime 2026-11-02T00:00:00.000Z: send a startTime before the endTime",
        "statusCode": 400,
      }
    `);
  });

  it("answers 404 for an unknown heartbeat and for a check that is not a heartbeat", async () => {
    emulator = demoEmulator();
    for (const id of ["hb-x", "chk-api"]) {
      const { status, json } = await call(
        emulator.app,
        "GET",
        `/v1/checks/heartbeats/${id}/events`,
      );
      expect(status).toBe(404);
      expect(json).toEqual({
        statusCode: 404,
        error: "Not Found",
        message: `heartbeat ${id} not found`,
      });
    }
  });
});
