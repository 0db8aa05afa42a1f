import { describe, expect, test } from "vitest";
import {
  answered,
  emptyLedger,
  holdSends,
  type Ledger,
  type Pace,
  parseLedger,
  serializeLedger,
  spanOf,
  takeSlot as takeOpen,
} from "../../src/api/client/rate-ledger";

const T0 = 1_700_000_000_000;
let ids = 0;

/** A send taken and answered at once (the answer's time is what a window counts). */
function takeSlot(ledger: Ledger, now: number, pace: Pace) {
  const id = String(++ids);
  const taken = takeOpen(ledger, now, pace, { id, openForMs: 10_000 });
  if (taken.at <= now) answered(ledger, now, id);
  return taken;
}
const DEFAULT: Pace = { limit: 600, intervalMs: 60_000, maxHoldMs: 60_000 };

/** Takes as many slots at `now` as are free, up to `most`; how many it took. */
function takeAll(ledger: Ledger, now: number, pace: Pace, most: number): number {
  let taken = 0;
  while (taken < most && takeSlot(ledger, now, pace).at <= now) taken++;
  return taken;
}

describe("spending the window, then pacing", () => {
  test("the limit's worth goes at once, and the next waits for the first to leave the window", () => {
    const ledger = emptyLedger();
    expect(takeAll(ledger, T0, DEFAULT, 1_000)).toBe(600);
    const { at } = takeSlot(ledger, T0 + 1, DEFAULT);
    expect(at).toBe(T0 + spanOf(60_000));
    // Then what left the window goes at once again: a window, not a trickle.
    expect(takeAll(ledger, at, DEFAULT, 1_000)).toBe(600);
  });

  test("sends spread over the window free their slots one by one, as they leave it", () => {
    const ledger = emptyLedger();
    const pace: Pace = { limit: 4, intervalMs: 1_000, maxHoldMs: 1_000 };
    for (const offset of [0, 100, 200, 300]) {
      expect(takeSlot(ledger, T0 + offset, pace).at).toBe(T0 + offset);
    }
    expect(takeSlot(ledger, T0 + 400, pace).at).toBe(T0 + spanOf(1_000));
    expect(takeSlot(ledger, T0 + spanOf(1_000), pace).at).toBe(T0 + spanOf(1_000));
    expect(takeSlot(ledger, T0 + spanOf(1_000), pace).at).toBe(T0 + 100 + spanOf(1_000));
  });

  test("a 429's hold stops every taker until it is over, and no longer", () => {
    const ledger = emptyLedger();
    holdSends(ledger, T0, T0 + 5_000, DEFAULT);
    expect(takeSlot(ledger, T0 + 10, DEFAULT).at).toBe(T0 + 5_000);
    expect(takeSlot(ledger, T0 + 5_000, DEFAULT).at).toBe(T0 + 5_000);
  });
});

describe("a send in flight", () => {
  test("counts in every window until it is answered, then for a window after its answer", () => {
    const ledger = emptyLedger();
    const pace: Pace = { limit: 2, intervalMs: 1_000, maxHoldMs: 1_000 };
    expect(takeOpen(ledger, T0, pace, { id: "slow", openForMs: 10_000 }).at).toBe(T0);
    expect(takeSlot(ledger, T0, pace).at).toBe(T0);
    // Long after the quick one left the window, the slow one, unanswered, still fills it.
    expect(takeSlot(ledger, T0 + 5_000, pace).at).toBe(T0 + 5_000);
    expect(takeSlot(ledger, T0 + 5_001, pace).at).toBeGreaterThan(T0 + 5_001);
    answered(ledger, T0 + 6_000, "slow");
    expect(takeSlot(ledger, T0 + 6_001, pace).at).toBe(T0 + 5_000 + spanOf(1_000));
  });

  test("whose process died counts as answered when its attempt would have ended", () => {
    const ledger = emptyLedger();
    const pace: Pace = { limit: 1, intervalMs: 1_000, maxHoldMs: 1_000 };
    takeOpen(ledger, T0, pace, { id: "dead", openForMs: 3_000 });
    expect(takeSlot(ledger, T0 + 2_000, pace).at).toBe(T0 + 2_000 + spanOf(1_000));
    expect(takeSlot(ledger, T0 + 3_000, pace).at).toBe(T0 + 3_000 + spanOf(1_000));
    expect(takeSlot(ledger, T0 + 3_000 + spanOf(1_000), pace).at).toBe(T0 + 3_000 + spanOf(1_000));
  });
});

describe("the strictest limit among the processes sharing a ledger", () => {
  test("holds for a process that was given a laxer one", () => {
    const ledger = emptyLedger();
    const strict: Pace = { limit: 10, intervalMs: 60_000, maxHoldMs: 60_000 };
    expect(takeSlot(ledger, T0, strict).at).toBe(T0);
    // Without the strict process's limit in the ledger, the lax one would send 599 more.
    expect(takeAll(ledger, T0 + 1, DEFAULT, 1_000)).toBe(9);
  });

  test("is dropped once its process has sent nothing for two of its windows", () => {
    const ledger = emptyLedger();
    const strict: Pace = { limit: 10, intervalMs: 1_000, maxHoldMs: 1_000 };
    takeSlot(ledger, T0, strict);
    expect(takeAll(ledger, T0 + 3 * spanOf(1_000), DEFAULT, 100)).toBe(100);
    expect(ledger.limits.map(([limit]) => limit)).toEqual([600]);
  });
});

describe("times ahead of the clock", () => {
  test("a hold further ahead than any server may ask is dropped and reported", () => {
    const ledger: Ledger = { ...emptyLedger(), holdUntil: T0 + 121_000 };
    const taken = takeSlot(ledger, T0, DEFAULT);
    expect(taken.at).toBe(T0);
    expect(taken.clamped).toEqual([{ kind: "hold", aheadMs: 121_000, maxHoldMs: 60_000 }]);
  });

  test("a hold a server may ask is kept", () => {
    const ledger: Ledger = { ...emptyLedger(), holdUntil: T0 + 30_000 };
    expect(takeSlot(ledger, T0, DEFAULT)).toEqual({ at: T0 + 30_000, clamped: [] });
  });

  test("sends dated ahead (the clock set back) count from now, for one window at most", () => {
    const hourAhead = T0 + 3_600_000;
    const ledger: Ledger = { ...emptyLedger(), sends: [[hourAhead, hourAhead, 600]] };
    const taken = takeSlot(ledger, T0, DEFAULT);
    expect(taken.clamped).toEqual([{ kind: "sends", aheadMs: 3_600_000 }]);
    expect(taken.at).toBe(T0 + spanOf(60_000));
  });
});

describe("the ledger's file", () => {
  test("stays small whatever the traffic: close sends share an entry", () => {
    const ledger = emptyLedger();
    const fast: Pace = { limit: 60_000, intervalMs: 60_000, maxHoldMs: 60_000 };
    for (let ms = 0; ms < 60_000; ms += 2) takeSlot(ledger, T0 + ms, fast);
    expect(ledger.sends.reduce((sum, [, , count]) => sum + count, 0)).toBe(30_000);
    expect(serializeLedger(ledger).length).toBeLessThan(8_000);
  });

  test("reads what it wrote, and leaves out what is out of shape", () => {
    const ledger = emptyLedger();
    takeSlot(ledger, T0, DEFAULT);
    expect(parseLedger(serializeLedger(ledger))).toEqual(ledger);
    expect(parseLedger("not json")).toEqual(emptyLedger());
    expect(parseLedger('{"tat": 5}')).toEqual(emptyLedger());
    expect(
      parseLedger(
        JSON.stringify({
          sends: [[1, 2, 3], [5, 4, 1], [1, 2, -1], "x", [1, 2, 1.5]],
          open: [["a", 5], [1, 5], ["b"]],
          holdUntil: "soon",
          limits: [
            [10, 1_000, 1],
            [0, 1_000, 1],
            [10, -1, 1],
          ],
        }),
      ),
    ).toEqual({ sends: [[1, 2, 3]], open: [["a", 5]], holdUntil: 0, limits: [[10, 1_000, 1]] });
  });
});
