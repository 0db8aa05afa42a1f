import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseSince } from "../../src/reports";
import { heartbeatLane, timeByMeaning, timeInState } from "../../src/reports/heartbeats/lane";
import { stateAtEnd } from "../../src/reports/heartbeats/state";
import { stateCounts, statsRows, successRatiosOf } from "../../src/reports/heartbeats/stats";
import { eventWarnings } from "../../src/reports/heartbeats/warnings";
import { histogram, stateSegments } from "../../src/reports/html/chart-data";
import { mapConcurrent, mergeAsync } from "../../src/reports/shared/async-streams";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function* delayed<T>(items: readonly T[], delays: readonly number[]): AsyncGenerator<T> {
  for (const [i, item] of items.entries()) {
    await tick(delays[i % delays.length] ?? 0);
    yield item;
  }
}

describe("report building blocks", () => {
  test("mergeAsync yields every item of every source exactly once, whatever the timing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer(), { maxLength: 20 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 5 }),
        async (sources, delays) => {
          const tagged = sources.map((items, s) => items.map((value, i) => `${s}:${i}:${value}`));
          const out: string[] = [];
          for await (const item of mergeAsync(tagged.map((items) => delayed(items, delays)))) {
            out.push(item);
          }
          expect(out.sort()).toEqual(tagged.flat().sort());
        },
      ),
      { numRuns: 40 },
    );
  });

  test("mapConcurrent never has more than the limit in flight and returns every result", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        async (delays, limit) => {
          let inFlight = 0;
          let peak = 0;
          const out: number[] = [];
          for await (const value of mapConcurrent(delayed(delays, [0]), limit, async (d) => {
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            await tick(d);
            inFlight -= 1;
            return d;
          })) {
            out.push(value);
          }
          expect(peak).toBeLessThanOrEqual(limit);
          expect(out.sort()).toEqual([...delays].sort());
        },
      ),
      { numRuns: 40 },
    );
  });

  test("a failure in mapConcurrent surfaces as the stream's error", async () => {
    const run = async () => {
      for await (const _ of mapConcurrent(delayed([1, 2, 3], [1]), 2, async (n) => {
        if (n === 2) throw new Error("detail read failed");
        return n;
      })) {
        // drain
      }
    };
    await expect(run()).rejects.toThrow("detail read failed");
  });

  test("the histogram counts every time once per series, in at most 60 contiguous buckets", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }), {
          maxLength: 300,
        }),
        fc.array(fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }), {
          maxLength: 300,
        }),
        (first, last) => {
          const spec = histogram(
            [
              { key: "a", label: "a", times: first },
              { key: "b", label: "b", times: last },
            ],
            "groups",
          );
          if (first.length + last.length === 0) {
            expect(spec).toBeUndefined();
            return;
          }
          expect(spec!.starts.length).toBeLessThanOrEqual(60);
          spec!.starts.forEach((start, i) => {
            expect(start % spec!.bucketMs).toBe(0);
            if (i > 0) expect(start - spec!.starts[i - 1]!).toBe(spec!.bucketMs);
          });
          expect(spec!.series[0]!.counts.reduce((n, c) => n + c, 0)).toBe(first.length);
          expect(spec!.series[1]!.counts.reduce((n, c) => n + c, 0)).toBe(last.length);
          for (const t of [...first, ...last]) {
            const i = spec!.starts.findIndex((s) => s <= t && t < s + spec!.bucketMs);
            expect(i).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
  });

  test("state segments cover the window without gaps, from the state before it to the last change", () => {
    const at = (h: number) => Date.UTC(2026, 10, 1, h);
    const segments = stateSegments(
      [
        { at: at(2), state: "FAILING" },
        { at: at(-5), state: "RECEIVED" },
        { at: at(5), state: "RECEIVED" },
      ],
      at(0),
      at(8),
      "RECEIVED",
    );
    expect(segments.map((s) => [s.state, (s.to - s.from) / 3_600_000, s.label])).toEqual([
      ["RECEIVED", 2, "RECEIVED for 2 h"],
      ["FAILING", 3, "FAILING for 3 h"],
      ["RECEIVED", 3, "RECEIVED for 3 h"],
    ]);
    expect(stateSegments([], at(0), at(1), undefined)).toEqual([
      {
        from: at(0),
        to: at(1),
        state: "UNKNOWN",
        label: "state unknown (no earlier event) for 1 h",
      },
    ]);
  });

  test("a heartbeat lane colours bands by what a state means, shows an unknown state as sent, and leaves an event without a timestamp off with a counted warning", () => {
    const at = (h: number) => Date.UTC(2026, 10, 1, h);
    const iso = (h: number) => new Date(at(h)).toISOString();
    const events = [
      { id: "a", state: "EARLY", timestamp: iso(1), source: "cron", userAgent: null },
      { id: "b", state: "PAUSED", timestamp: iso(3) },
      { id: "c", timestamp: iso(5) },
      { id: "d", state: "LATE" },
      { id: "e", state: "GRACE", timestamp: "soon" },
    ];
    const stats = { last24Hours: null, last7Days: { successRatio: { currentPeriod: 99.5 } } };
    const check = {
      checkId: "hb-1",
      lastEventBefore: { id: "z", state: "GRACE", timestamp: iso(-1) },
      events,
      stats,
      successRatios: successRatiosOf(stats),
      stateAtEnd: stateAtEnd(events, null),
      warnings: eventWarnings(events),
    };

    const lane = heartbeatLane(check, at(0), at(8));
    expect(lane.segments.map((s) => [s.state, s.key, (s.to - s.from) / 3_600_000])).toEqual([
      ["GRACE", "grace", 1],
      ["EARLY", "arrived", 2],
      ["PAUSED", "unknown", 2],
      ["(no state)", "unknown", 3],
    ]);
    expect(lane.marks.map((m) => [m.key, m.label])).toEqual([
      ["arrived", "2026-11-01 01:00:00 UTC: EARLY (healthy) · cron"],
      ["unknown", "2026-11-01 03:00:00 UTC: PAUSED (unknown state)"],
      ["unknown", "2026-11-01 05:00:00 UTC: (no state) (unknown state)"],
    ]);
    expect(timeByMeaning(timeInState(lane))).toEqual({
      arrived: 0.25,
      grace: 0.125,
      missed: 0,
      unknown: 0.625,
    });
    expect(check.stateAtEnd).toEqual({ state: null, meaning: "unknown", since: iso(5) });
    expect(check.warnings).toEqual([
      "2 events have no readable timestamp: listed, but left off the chart and the timeline",
      '2 events have no state this version knows ("PAUSED", (no state)): shown as sent and counted as unknown',
    ]);
    expect(statsRows(check)).toEqual([
      ["24 h", "n/a", "n/a", "n/a", "n/a"],
      ["7 d", "99.50 %", "n/a", "n/a", "n/a"],
    ]);
    expect(stateCounts(check)).toBe(
      "1 EARLY, 1 PAUSED, 1 (no state), 1 LATE, 1 GRACE (1 healthy, 2 unknown state, 1 missed or failing, 1 overdue, in grace)",
    );
  });

  test("success ratios: a period known to have no pings has no ratio and no change, a 0 % that may be one draws none", () => {
    // A job that started pinging today: its 7 days hold no more pings than its last 24 h.
    const rows = (stats: Parameters<typeof successRatiosOf>[0]) =>
      statsRows({ stats } as Parameters<typeof statsRows>[0]);
    const newJob = {
      last24Hours: {
        successRatio: { currentPeriod: 71.43, previousPeriod: 0 },
        totalEntitiesCurrentPeriod: 7,
      },
      last7Days: {
        successRatio: { currentPeriod: 71.43, previousPeriod: 0 },
        totalEntitiesCurrentPeriod: 7,
      },
    };
    expect(successRatiosOf(newJob).last24Hours).toEqual({
      current: { ratio: 71.43, pings: 7, note: null },
      previous: { ratio: null, pings: 0, note: "no pings" },
      change: null,
    });
    expect(rows(newJob)).toEqual([
      ["24 h", "71.43 %", "no pings", "n/a (no pings)", 7],
      ["7 d", "71.43 %", "0.00 % or no pings", "n/a (maybe no pings)", 7],
    ]);
    // Every ping failing is 0 % with pings: a change is drawn to it.
    const failing = {
      last24Hours: {
        successRatio: { currentPeriod: 0, previousPeriod: 50 },
        totalEntitiesCurrentPeriod: 4,
      },
    };
    expect(rows(failing)[0]).toEqual(["24 h", "0.00 %", "50.00 %", "-50.00 pt", 4]);
  });

  test("--since reads durations and ISO dates, and refuses the future", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(parseSince("90m", now).toISOString()).toBe("2026-11-21T10:30:00.000Z");
    expect(parseSince("7d", now).toISOString()).toBe("2026-11-14T12:00:00.000Z");
    expect(parseSince("2026-11-20", now).toISOString()).toBe("2026-11-20T00:00:00.000Z");
    expect(parseSince("2026-11-21T08:00:00+02:00", now).toISOString()).toBe(
      "2026-11-21T06:00:00.000Z",
    );
    expect(() => parseSince("2026-12-01", now)).toThrowErrorMatchingInlineSnapshot(
      `[WindowError: --since 2026-12-01 is not in the past; the window would be empty.]`,
    );
    expect(() => parseSince("0h", now)).toThrowErrorMatchingInlineSnapshot(
      `[WindowError: --since 0h must be longer than zero.]`,
    );
  });
});
