import { type BudgetStore, memoryStore, sharedStore } from "./budget-store";
import { sleep } from "./sleep";

/**
 * The requests one key may send: at most `limit` in any `intervalMs`, as the service counts
 * them, spread evenly after a small burst. Every client of a machine that sends with the same
 * key to the same API takes its slots from one budget (a file under the user's runtime
 * directory, `budget-store.ts`), so a run's program and provider plugin, and a report beside
 * them, keep to the limit together rather than each to its own.
 */
export interface RateBudget {
  /**
   * Waits for the next slot and takes it. Resolves `false`, taking nothing, when that slot
   * would come after `deadline`; rejects when `signal` aborts.
   */
  take(deadline: number | undefined, signal?: AbortSignal): Promise<boolean>;
  /** The service said to wait (a 429): nobody sharing the budget sends before `until`. */
  hold(until: number): Promise<void>;
}

export interface RateBudgetOptions {
  readonly limit: number;
  readonly intervalMs: number;
  /** Share the budget with every client of this machine using the same key and URL. */
  readonly shared: boolean;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Longest hold a server may ask for: the budget never owes more than this ahead. */
  readonly maxHoldMs: number;
}

/** Spacing kept above the exact rate, so jitter between sending and arrival stays inside. */
const MARGIN = 0.02;

/**
 * The shape of the budget (GCRA, the generic cell rate algorithm): a burst of a tenth of the
 * limit, then one request every `emissionMs`. A window of `intervalMs` then holds at most
 * `burst + intervalMs / emissionMs` = `limit` requests, however the service aligns it.
 */
export function budgetShape(limit: number, intervalMs: number) {
  const burst = limit < 2 ? 1 : Math.min(limit - 1, Math.max(1, Math.floor(limit / 10)));
  const emissionMs = (intervalMs * (1 + MARGIN)) / Math.max(1, limit - burst);
  return { burst, emissionMs, toleranceMs: (burst - 1) * emissionMs };
}

export function createRateBudget(options: RateBudgetOptions): RateBudget {
  const { emissionMs, toleranceMs } = budgetShape(options.limit, options.intervalMs);
  const store: BudgetStore = options.shared
    ? sharedStore(options.baseUrl, options.apiKey)
    : memoryStore();
  // Never owe more than the longest wait a server may impose: a clock set back, or a ledger
  // left by a run with other settings, cannot stop sending for longer.
  const ahead = options.maxHoldMs + options.intervalMs + toleranceMs + emissionMs;
  let queue: Promise<unknown> = Promise.resolve();

  const attempt = (now: number) =>
    store.update((state) => {
      state.tat = Math.min(state.tat, now + ahead);
      const next = state.tat - toleranceMs;
      if (next > now) return next;
      state.tat = Math.max(state.tat, now) + emissionMs;
      return now;
    });

  async function takeInTurn(deadline: number | undefined, signal?: AbortSignal) {
    for (;;) {
      signal?.throwIfAborted();
      const now = Date.now();
      const at = await attempt(now);
      if (at <= now) return true;
      if (deadline !== undefined && at > deadline) return false;
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
      await store.update((state) => {
        state.tat = Math.max(state.tat, until + toleranceMs);
      });
    },
  };
}
