import { randomBytes } from "node:crypto";
import { type BudgetStore, memoryStore, sharedStore } from "./budget-store";
import { answered, type Clamped, holdSends, type Pace, takeSlot } from "./rate-ledger";
import { sleep } from "./sleep";

/**
 * The requests one key may send: at most `limit` in any `intervalMs`, however the service
 * counts its window, sent as fast as they come until the window is full (`rate-ledger.ts`).
 * Every client of a machine that sends with the same key to the same API takes its slots from
 * one ledger (a file under the user's runtime folder, `budget-store.ts`), so a run's program
 * and provider plugin, and a report beside them, keep to the limit together, and to the
 * strictest limit any of them was given.
 */
export interface RateBudget {
  /**
   * Waits for the next slot and takes it: call `answered()` once the attempt has its answer
   * or has failed. Resolves `undefined`, taking nothing, when that slot would come after
   * `deadline`; rejects when `signal` aborts.
   */
  take(deadline: number | undefined, signal?: AbortSignal): Promise<Slot | undefined>;
  /** The service said to wait (a 429): nobody sharing the budget sends before `until`. */
  hold(until: number): Promise<void>;
}

/** A slot taken: the send counts in every window until its answer, and a window after it. */
export interface Slot {
  answered(): Promise<void>;
}

export interface RateBudgetOptions {
  readonly limit: number;
  readonly intervalMs: number;
  /** Share the budget with every client of this machine using the same key and URL. */
  readonly shared: boolean;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Longest hold a server may ask for: a hold further ahead is dropped, with a warning. */
  readonly maxHoldMs: number;
  /** Longest an attempt may take: a send its process never says was answered counts till then. */
  readonly attemptMs: number;
  /** The ledger, for tests; by default the shared one or this process's own. */
  readonly store?: BudgetStore | undefined;
}

export function createRateBudget(options: RateBudgetOptions): RateBudget {
  const pace: Pace = {
    limit: options.limit,
    intervalMs: options.intervalMs,
    maxHoldMs: options.maxHoldMs,
  };
  const store =
    options.store ??
    (options.shared ? sharedStore(options.baseUrl, options.apiKey) : memoryStore());
  let queue: Promise<unknown> = Promise.resolve();
  const prefix = `${process.pid}.${randomBytes(4).toString("hex")}`;
  let sends = 0;

  async function takeInTurn(
    deadline: number | undefined,
    signal?: AbortSignal,
  ): Promise<Slot | undefined> {
    const ticket = { id: `${prefix}.${++sends}`, openForMs: options.attemptMs };
    for (;;) {
      signal?.throwIfAborted();
      const { at, now } = await store.update((ledger, now) => {
        const taken = takeSlot(ledger, now, pace, ticket);
        explain(taken.clamped, store.where);
        return { at: taken.at, now };
      });
      if (at <= now) {
        return { answered: () => store.update((ledger, now) => answered(ledger, now, ticket.id)) };
      }
      if (deadline !== undefined && at > deadline) return undefined;
      await sleep(at - now, signal);
    }
  }

  return {
    take(deadline, signal) {
      // One taker at a time in this process: the others wait their turn, not on the file.
      const turn = queue.then(() => takeInTurn(deadline, signal));
      queue = turn.catch(() => undefined);
      return turn;
    },
    async hold(until) {
      await store.update((ledger, now) =>
        explain(holdSends(ledger, now, until, pace), store.where),
      );
    },
  };
}

const explained = new Set<string>();

/** Says, once per ledger and kind, that a time ahead of the clock was cut, and why. */
function explain(clamped: readonly Clamped[], where: string): void {
  for (const cut of clamped) {
    const key = `${where}\n${cut.kind}`;
    if (explained.has(key)) continue;
    explained.add(key);
    const seconds = Math.ceil(cut.aheadMs / 1000);
    process.emitWarning(
      cut.kind === "hold"
        ? `incident-sync: the shared rate ledger (${where}) held every request for ${seconds} s, longer than any wait a server may ask of this client (${Math.ceil(cut.maxHoldMs / 1000)} s): the clock was set back, or the ledger was written by something else. The hold is dropped; a 429 from the service would set it again.`
        : `incident-sync: the shared rate ledger (${where}) records requests up to ${seconds} s ahead of this machine's clock (set back?): they count as sent now, so the limit still holds.`,
    );
  }
}
