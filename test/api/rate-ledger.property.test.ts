import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  answered,
  emptyLedger,
  holdSends,
  type Ledger,
  type Pace,
  parseLedger,
  serializeLedger,
  takeSlot,
} from "../../src/api/client/rate-ledger";

/**
 * The rate ledger's promise, over any interleaving of the processes sharing it, any order
 * of answers and any process dying with sends in flight: a send taken at `t` under a kept
 * limit `(L, W)` found fewer than `L` sends taken before it that the service may have
 * counted in a window of `W` with it (answered after `t - W`, or never said to be). Since a
 * request arrives between its taking and its answer, no window of arrivals of that length
 * then holds more than `L`. And the ledger stays small.
 */

interface Send {
  id: string;
  takenAt: number;
  /** When its answer came; when it counts as answered if its process never says. */
  answeredAt: number;
  /** The limits the send was checked against. */
  limits: [number, number][];
}

const pace = fc.record({
  limit: fc.integer({ min: 1, max: 40 }),
  intervalMs: fc.integer({ min: 50, max: 5_000 }),
  maxHoldMs: fc.integer({ min: 0, max: 5_000 }),
});

const step = fc.record({
  process: fc.nat(),
  /** Time passing before the step, in parts of the shortest window. */
  advance: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.6, noNaN: true })),
  action: fc.oneof(
    { weight: 8, arbitrary: fc.constant({ kind: "take" as const }) },
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constant("answer" as const), which: fc.nat() }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("hold" as const),
        forMs: fc.integer({ min: 0, max: 10_000 }),
      }),
    },
  ),
  /** The ledger goes through its file's text, as between processes. */
  viaFile: fc.boolean(),
});

/** How long an attempt may take: past it, an unanswered send counts as answered. */
const OPEN_FOR_MS = 3_000;

/** The sends taken before `send` that the service may count in a window of `intervalMs` with it. */
function mayShareAWindow(sends: readonly Send[], send: Send, intervalMs: number): number {
  const index = sends.indexOf(send);
  return sends.slice(0, index).filter((earlier) => earlier.answeredAt > send.takenAt - intervalMs)
    .length;
}

describe("the rate ledger, whatever the interleaving of its processes", () => {
  test("no window of a kept limit holds more sends than that limit", () => {
    fc.assert(
      fc.property(
        fc.array(pace, { minLength: 1, maxLength: 4 }),
        fc.array(step, { minLength: 1, maxLength: 400 }),
        (paces, steps) => {
          let ledger: Ledger = emptyLedger();
          let now = 1_700_000_000_000;
          const shortest = Math.min(...paces.map((p) => p.intervalMs));
          const sends: Send[] = [];
          const open: Send[] = [];
          for (const { process, advance, action, viaFile } of steps) {
            const mine: Pace = paces[process % paces.length] as Pace;
            now += Math.floor(advance * shortest);
            if (viaFile) ledger = parseLedger(serializeLedger(ledger));
            // A send nobody answered by its attempt's end counts as answered then.
            for (const send of open.filter((s) => s.takenAt + OPEN_FOR_MS <= now)) {
              send.answeredAt = send.takenAt + OPEN_FOR_MS;
              open.splice(open.indexOf(send), 1);
            }
            if (action.kind === "hold") {
              holdSends(ledger, now, now + action.forMs, mine);
              continue;
            }
            if (action.kind === "answer") {
              const send = open[action.which % Math.max(1, open.length)];
              if (!send) continue;
              answered(ledger, now, send.id);
              send.answeredAt = now;
              open.splice(open.indexOf(send), 1);
              continue;
            }
            const id = String(sends.length);
            const { at } = takeSlot(ledger, now, mine, { id, openForMs: OPEN_FOR_MS });
            if (at > now) continue;
            const send: Send = {
              id,
              takenAt: now,
              answeredAt: Number.POSITIVE_INFINITY,
              limits: ledger.limits.map(([l, i]) => [l, i]),
            };
            sends.push(send);
            open.push(send);
            expect(ledger.sends.length).toBeLessThanOrEqual(512);
          }
          for (const send of sends) {
            for (const [limit, intervalMs] of send.limits) {
              expect(mayShareAWindow(sends, send, intervalMs)).toBeLessThan(limit);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a take is refused only while a hold is on or a kept limit's window is full", () => {
    fc.assert(
      fc.property(
        fc.array(pace, { minLength: 1, maxLength: 3 }),
        fc.array(step, { minLength: 1, maxLength: 200 }),
        (paces, steps) => {
          const ledger = emptyLedger();
          let now = 1_700_000_000_000;
          const shortest = Math.min(...paces.map((p) => p.intervalMs));
          const answers: number[] = [];
          let taken = 0;
          for (const { process, advance, action } of steps) {
            const mine: Pace = paces[process % paces.length] as Pace;
            now += Math.floor(advance * shortest);
            if (action.kind === "hold") {
              holdSends(ledger, now, now + action.forMs, mine);
              continue;
            }
            if (action.kind === "answer") continue;
            const holdUntil = ledger.holdUntil;
            const id = String(++taken);
            const { at } = takeSlot(ledger, now, mine, { id, openForMs: OPEN_FOR_MS });
            if (at <= now) {
              answered(ledger, now, id);
              answers.push(now);
              continue;
            }
            // Close answers share an entry dated by the last: a window's hundredth at most.
            const full = ledger.limits.some(
              ([limit, intervalMs]) =>
                answers.filter((t) => t > now - intervalMs * 1.02 - intervalMs / 50).length >=
                limit,
            );
            expect(holdUntil > now || full).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
