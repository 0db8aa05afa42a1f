import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import { createClient, EventsWalkStuckError, type HeartbeatEvent } from "../../src/api";
import { API_KEY, heartbeatEvent, stats } from "../support/api-fixtures";
import { startTestServer, type TestServer } from "../support/http-server";
import { type EventOrder, serveHeartbeatEvents } from "../support/paged-data";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const T0 = Date.parse("2026-05-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const newestFirst = (events: readonly HeartbeatEvent[]) =>
  [...events].sort(
    (a, b) =>
      Date.parse(b.timestamp!) - Date.parse(a.timestamp!) ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
/** An event the service sent with only its id (the reference requires nothing else). */
const bare = (id: string): HeartbeatEvent => ({ id });

const ORDERS: EventOrder[] = ["newest-first", "oldest-first", "shuffled"];

async function serve(
  events: HeartbeatEvent[],
  order: EventOrder = "newest-first",
  random: () => number = Math.random,
) {
  await server?.close();
  server = await startTestServer((request, response) =>
    serveHeartbeatEvents(events, stats, request, response, order, random),
  );
  return createClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    rateLimit: { limit: 100_000, intervalMs: 1_000 },
  });
}

describe("heartbeats.eventsBetween", () => {
  test.each(ORDERS)(
    "events sharing one timestamp, listed %s, are each returned exactly once, sorted newest first",
    async (order) => {
      // 25 events one second apart, except that ids e08..e12 share one instant, so an answer of
      // 10 ends in the middle of that group whichever end the service keeps.
      const events = Array.from({ length: 25 }, (_, i) => {
        const id = `e${String(24 - i).padStart(2, "0")}`;
        const second = i >= 7 && i <= 11 ? 7 : i;
        return heartbeatEvent(id, at(-second * 1000));
      });
      const client = await serve(events, order);
      let fresh = 0;

      const result = await client.heartbeats.eventsBetween("chk_1", at(-3_600_000), at(0), {
        onPage: (_page, count) => {
          fresh += count;
        },
      });

      expect(result.events.map((e) => e.id)).toEqual(newestFirst(events).map((e) => e.id));
      expect(result.stats).toEqual(stats);
      expect(fresh).toBe(25);
      for (const request of server!.requests) {
        expect(request.url.searchParams.get("limit")).toBe("10");
      }
      // A few calls per answer of ten: the halves a full answer is split into (they share an
      // edge, so an instant at it is asked for twice).
      expect(server!.requests.length).toBeLessThanOrEqual(order === "shuffled" ? 30 : 16);
    },
  );

  test("a service that lists oldest first gives the same events as one that lists newest first", async () => {
    const events = Array.from({ length: 25 }, (_, i) =>
      heartbeatEvent(`e${String(i).padStart(2, "0")}`, at(-i * 60_000)),
    );
    const read = async (order: EventOrder) => {
      const client = await serve(events, order);
      return client.heartbeats.eventsBetween("chk_1", at(-86_400_000), at(0));
    };
    const byNewest = await read("newest-first");
    const byOldest = await read("oldest-first");
    expect(byOldest).toEqual(byNewest);
    expect(byNewest.events).toHaveLength(25);
  });

  test("returns every event of the window exactly once, and the newest, for many windows, tie patterns, orders and ends", async () => {
    // Timestamps drawn from few instants, so ties (up to 9 per instant) are common and land
    // on page edges in every way; windows cut the data anywhere; the service lists them newest
    // first, oldest first, or keeps any ten in any order, and takes endTime as inclusive or
    // exclusive.
    const arbitraryCase = fc
      .array(fc.integer({ min: 0, max: 40 }), { maxLength: 120, size: "max" })
      .filter((seconds) => {
        const perInstant = new Map<number, number>();
        for (const s of seconds) perInstant.set(s, (perInstant.get(s) ?? 0) + 1);
        return [...perInstant.values()].every((count) => count < 10);
      })
      .chain((seconds) =>
        fc.record({
          seconds: fc.constant(seconds),
          from: fc.integer({ min: -2, max: 40 }),
          span: fc.integer({ min: 0, max: 45 }),
        }),
      );
    const events: HeartbeatEvent[] = [];
    let order: EventOrder = "newest-first";
    let random = () => 0;
    let endTime: "inclusive" | "exclusive" = "inclusive";
    let requests = 0;
    server = await startTestServer((request, response) => {
      requests += 1;
      serveHeartbeatEvents(events, stats, request, response, order, random, endTime);
    });
    const walking = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      rateLimit: { limit: 100_000, intervalMs: 1_000 },
    });

    await fc.assert(
      fc.asyncProperty(
        arbitraryCase,
        fc.constantFrom(...ORDERS),
        fc.integer(),
        fc.constantFrom("inclusive" as const, "exclusive" as const),
        async ({ seconds, from, span }, chosen, seed, bounds) => {
          events.length = 0;
          order = chosen;
          endTime = bounds;
          let state = seed;
          random = () => {
            state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
            return Math.abs(state) / 2_147_483_648;
          };
          seconds.forEach((s, i) => {
            events.push(heartbeatEvent(`ev_${String(i).padStart(3, "0")}`, at(s * 1000)));
          });
          const start = from * 1000;
          const end = (from + span) * 1000;
          const inWindow = events.filter((e) => {
            const t = Date.parse(e.timestamp!) - T0;
            return t >= start && t <= end;
          });

          const result = await walking.heartbeats.eventsBetween(
            "chk_1",
            at(start),
            new Date(T0 + end),
          );

          expect(result.events.map((e) => e.id)).toEqual(newestFirst(inWindow).map((e) => e.id));
          const latest = await walking.heartbeats.latestEvent(
            "chk_1",
            at(start),
            new Date(T0 + end),
          );
          expect(latest.event?.id).toBe(newestFirst(inWindow)[0]?.id);
        },
      ),
      { numRuns: 120 },
    );
    // On average a window took several pages.
    expect(requests).toBeGreaterThan(2 * 120);
  });

  test("a full page at a single instant stops the walk with a clear error, keeping what it found", async () => {
    const events = [
      heartbeatEvent("late", at(5_000)),
      ...Array.from({ length: 12 }, (_, i) =>
        heartbeatEvent(`same_${String(i).padStart(2, "0")}`, at(0)),
      ),
    ];
    const client = await serve(events);

    const error = await client.heartbeats
      .eventsBetween("chk_1", at(-60_000), at(10_000))
      .catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(EventsWalkStuckError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"heartbeats.eventsBetween: GET /v1/checks/heartbeats/chk_1/events?startTime=2026-05-01T00%3A00%3A00.000Z&endTime=2026-05-01T00%3A00%3A00.001Z&limit=10 returned a full page of 10 events all at 2026-05-01T00:00:00.000Z; the API pages by time only, so events at that instant past the first 10 cannot be listed. 11 events were collected before it; they are on this error's "events"."`,
    );
    expect((error as EventsWalkStuckError).events.map((e) => e.id)).toEqual([
      "late",
      ...["11", "10", "09", "08", "07", "06", "05", "04", "03", "02"].map((n) => `same_${n}`),
    ]);
    expect(server!.requests.length).toBeLessThanOrEqual(6);
  });

  test("events without a timestamp are kept once each, after the others", async () => {
    const dated = Array.from({ length: 14 }, (_, i) =>
      heartbeatEvent(`d${String(i).padStart(2, "0")}`, at(-i * 1000)),
    );
    const client = await serve([
      ...dated,
      bare("x1"),
      bare("x2"),
      { ...bare("x3"), timestamp: "soon" },
    ]);

    const result = await client.heartbeats.eventsBetween("chk_1", at(-60_000), at(0));

    expect(result.events.map((e) => e.id)).toEqual([
      ...dated.map((e) => e.id),
      // Those without a readable timestamp come last, by id.
      "x3",
      "x2",
      "x1",
    ]);
  });

  test("a full page without a readable timestamp stops the walk with a clear error instead of asking for it again", async () => {
    const client = await serve(Array.from({ length: 12 }, (_, i) => bare(`x${i}`)));

    const error = await client.heartbeats
      .eventsBetween("chk_1", at(-60_000), at(0))
      .catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(EventsWalkStuckError);
    expect((error as EventsWalkStuckError).timestamp).toBeNull();
    expect((error as Error).message).toContain(
      "returned a full page of 10 events, none with a readable timestamp; the API pages by time only",
    );
    expect((error as EventsWalkStuckError).events).toHaveLength(10);
    expect(server!.requests).toHaveLength(1);
  });

  test("an empty window returns no events and the stats of the check", async () => {
    const client = await serve([heartbeatEvent("old", at(-10_000_000))]);
    const result = await client.heartbeats.eventsBetween("chk_1", at(-1000), at(0));
    expect(result).toEqual({ events: [], stats });
    expect(server!.requests).toHaveLength(1);
  });

  test("listEvents passes the window and the limit as given", async () => {
    const client = await serve([heartbeatEvent("a", at(0))]);
    const response = await client.heartbeats.listEvents("chk_1", {
      startTime: new Date(T0 - 1000),
      endTime: "2026-05-01T00:00:00.000Z",
      limit: 3,
    });
    expect(response).toEqual([{ events: [heartbeatEvent("a", at(0))], stats }]);
    expect(Object.fromEntries(server!.requests[0]!.url.searchParams)).toEqual({
      startTime: "2026-04-30T23:59:59.000Z",
      endTime: "2026-05-01T00:00:00.000Z",
      limit: "3",
    });
  });
});
