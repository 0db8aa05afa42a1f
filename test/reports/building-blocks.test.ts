import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseSince } from "../../src/reports";
import { bucketLastSeen } from "../../src/reports/html/last-seen-chart";
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

  test("the last-seen buckets count every group once and never exceed 60 bars", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }), {
          maxLength: 300,
        }),
        (times) => {
          const { buckets, sizeMs } = bucketLastSeen(times);
          expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(times.length);
          if (buckets.length > 0) {
            const span = (buckets.at(-1)!.start - buckets[0]!.start) / sizeMs + 1;
            expect(span).toBeLessThanOrEqual(60);
          }
        },
      ),
    );
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
