import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { HeartbeatState } from "../../src/api";
import { buildOpenApiDocument } from "../../src/api/openapi";
import type { Emulator } from "../../src/emulator";
import { nameUuid } from "../../src/emulator/name-uuid";
import { deriveEvents } from "../../src/emulator/store";
import { call, demoEmulator, NOW } from "./helpers";

let emulator: Emulator | undefined;
afterEach(() => emulator?.close());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse("2026-11-01T00:00:00.000Z");
const KEY = { accountId: "acct-1", checkId: "hb-1" };
/** RFC 4122 version 5: `xxxxxxxx-xxxx-5xxx-[89ab]xxx-xxxxxxxxxxxx`. */
const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const ping = (seq: number, minutes: number, ok = true) => ({
  seq,
  atMs: T0 + minutes * MINUTE,
  ok,
  source: "cron",
  userAgent: "curl/8.5.0",
});
const changes = (events: ReturnType<typeof deriveEvents>) =>
  events.map((e) => [e.state, (e.atMs - T0) / MINUTE]);

describe("heartbeat states the emulator derives from pings", () => {
  it("names on-time pings RECEIVED, pings within half a period EARLY, and a reported failure FAILING", () => {
    const events = deriveEvents(
      KEY,
      [ping(1, 0), ping(2, 20), ping(3, 60), ping(4, 120), ping(5, 180, false), ping(6, 240)],
      { periodMs: HOUR, graceMs: 10 * MINUTE },
      T0 + 250 * MINUTE,
    );
    expect(changes(events)).toEqual([
      ["RECEIVED", 0],
      ["EARLY", 20],
      ["RECEIVED", 60],
      ["FAILING", 180],
      ["RECEIVED", 240],
    ]);
    expect(events[0]).toEqual({
      id: nameUuid("acct-1/hb-1/ping/1"),
      state: "RECEIVED",
      timestamp: "2026-11-01T00:00:00.000Z",
      atMs: T0,
      source: "cron",
      userAgent: "curl/8.5.0",
    });
  });

  it("turns silence into GRACE at the end of the period and LATE at the end of the grace, once each is past", () => {
    const settings = { periodMs: HOUR, graceMs: 10 * MINUTE };
    const pings = [ping(1, 0), ping(2, 65), ping(3, 200)];
    // A ping in the grace period arrived: RECEIVED. The second gap runs past the grace.
    expect(changes(deriveEvents(KEY, pings, settings, T0 + 300 * MINUTE))).toEqual([
      ["RECEIVED", 0],
      ["GRACE", 60],
      ["RECEIVED", 65],
      ["GRACE", 125],
      ["LATE", 135],
      ["RECEIVED", 200],
      ["GRACE", 260],
      ["LATE", 270],
    ]);
    // Deadlines after now are not emitted yet.
    expect(changes(deriveEvents(KEY, pings, settings, T0 + 265 * MINUTE)).slice(-2)).toEqual([
      ["RECEIVED", 200],
      ["GRACE", 260],
    ]);
    // Without grace, the end of the period is LATE straight away.
    expect(
      changes(deriveEvents(KEY, [ping(1, 0)], { periodMs: HOUR, graceMs: 0 }, T0 + 2 * HOUR)),
    ).toEqual([
      ["RECEIVED", 0],
      ["LATE", 60],
    ]);
  });

  it("keeps a heartbeat that reported failing FAILING through the silence after it", () => {
    const events = deriveEvents(
      KEY,
      [ping(1, 0, false), ping(2, 300)],
      { periodMs: HOUR, graceMs: 10 * MINUTE },
      T0 + 310 * MINUTE,
    );
    expect(changes(events)).toEqual([
      ["FAILING", 0],
      ["RECEIVED", 300],
    ]);
  });

  it("emits only the five states, each with a version-5 UUID of its own, for any pings, period and grace", () => {
    const arbitraryCase = fc.record({
      pings: fc.array(
        fc.record({ minutes: fc.integer({ min: 0, max: 3_000 }), ok: fc.boolean() }),
        {
          maxLength: 40,
        },
      ),
      periodMs: fc.option(fc.integer({ min: 1, max: 600 * MINUTE }), { nil: null }),
      graceMs: fc.integer({ min: 0, max: 120 * MINUTE }),
      nowMinutes: fc.integer({ min: 0, max: 4_000 }),
    });
    fc.assert(
      fc.property(arbitraryCase, ({ pings, periodMs, graceMs, nowMinutes }) => {
        const sorted = pings
          .map((p, i) => ping(i + 1, p.minutes, p.ok))
          .sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
        const nowMs = T0 + nowMinutes * MINUTE;
        const events = deriveEvents(KEY, sorted, { periodMs, graceMs }, nowMs);
        for (const event of events) {
          expect(HeartbeatState.options).toContain(event.state);
          expect(event.id).toMatch(UUID_V5);
          expect(event.timestamp).toBe(new Date(event.atMs).toISOString());
        }
        expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
        // A state change is an event: never the same state twice in a row.
        for (const [i, e] of events.slice(1).entries()) {
          expect(e.state).not.toBe(events[i]!.state);
        }
        // Only pings are in the future of now; silence events never are.
        for (const e of events.filter((e) => e.state === "GRACE" || e.state === "LATE")) {
          expect(e.atMs).toBeLessThanOrEqual(nowMs);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("answers the demo heartbeats over HTTP with the five states and UUID ids only, as its OpenAPI document says", async () => {
    emulator = demoEmulator();
    const document = buildOpenApiDocument();
    const response = document.components.schemas.HeartbeatEventsResponse as {
      items: { properties: { events: { items: HeartbeatEventSchema } } };
    };
    const eventSchema = response.items.properties.events.items;
    expect(eventSchema.required).toEqual(["id"]);
    expect(eventSchema.properties.id).toMatchObject({ type: "string", format: "uuid" });
    expect(eventSchema.properties.state.enum).toEqual(HeartbeatState.options);

    const states = new Set<string>();
    for (const checkId of ["hb-billing-sync", "hb-nightly-backup"]) {
      const { status, json } = await call(
        emulator.app,
        "GET",
        `/v1/checks/heartbeats/${checkId}/events?startTime=2026-10-01&endTime=${NOW.toISOString()}`,
      );
      expect(status).toBe(200);
      const [result] = json as { events: { id: string; state: string }[] }[];
      for (const event of result!.events) {
        expect(eventSchema.properties.state.enum).toContain(event.state);
        expect(event.id).toMatch(UUID_V5);
        states.add(event.state);
      }
    }
    expect([...states].sort()).toEqual(["FAILING", "GRACE", "LATE", "RECEIVED"]);
  });
});

interface HeartbeatEventSchema {
  required: string[];
  properties: {
    id: Record<string, unknown>;
    state: { enum: string[] };
  };
}

describe("name-based UUIDs", () => {
  it("follow RFC 4122 version 5: the DNS namespace and www.example.com give the published id", () => {
    const dns = Buffer.from("6ba7b8109dad11d180b400c04fd430c8", "hex");
    expect(nameUuid("www.example.com", dns)).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
    expect(nameUuid("acct-demo/hb-1/ping/1")).toMatch(UUID_V5);
    expect(nameUuid("acct-demo/hb-1/ping/1")).toBe(nameUuid("acct-demo/hb-1/ping/1"));
    expect(nameUuid("acct-demo/hb-1/ping/1")).not.toBe(nameUuid("acct-demo/hb-1/ping/2"));
  });
});
