import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { z } from "zod";
import { honoPath, type Route } from "../api/routes";
import { ConnectionResetFault } from "./faults";

const Counts = z.record(z.string(), z.int().min(0));

export const OperationStats = z.object({
  total: z.int().min(0),
  /** Answers by status code (`"200"`, `"503"`), and `"reset"` for injected resets. */
  byStatus: Counts,
});
export type OperationStats = z.infer<typeof OperationStats>;

/**
 * The public API requests the emulator received since it started or since the last
 * reset: in total, by answer and by operation id. A request that matched no operation
 * (an unknown path, another method) counts in `total` and `byStatus` only.
 */
export const RequestStats = z.object({
  /** When counting started: the start, or the last reset. */
  since: z.string(),
  total: z.int().min(0),
  byStatus: Counts,
  byOperation: z.record(z.string(), OperationStats),
});
export type RequestStats = z.infer<typeof RequestStats>;

interface Tally {
  total: number;
  byStatus: Map<string, number>;
}

const newTally = (): Tally => ({ total: 0, byStatus: new Map() });

function add(tally: Tally, outcome: string): void {
  tally.total += 1;
  tally.byStatus.set(outcome, (tally.byStatus.get(outcome) ?? 0) + 1);
}

const sortedRecord = <T>(entries: Iterable<[string, T]>): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));

const render = (tally: Tally): OperationStats => ({
  total: tally.total,
  byStatus: sortedRecord(tally.byStatus),
});

/** Counts the requests of the public API (issue 12: API requests per run, at the server). */
export class RequestCounter {
  private since: Date;
  private all = newTally();
  private operations = new Map<string, Tally>();

  constructor(private readonly now: () => Date) {
    this.since = now();
  }

  record(operationId: string | undefined, outcome: string): void {
    add(this.all, outcome);
    if (operationId === undefined) return;
    let tally = this.operations.get(operationId);
    if (tally === undefined) {
      tally = newTally();
      this.operations.set(operationId, tally);
    }
    add(tally, outcome);
  }

  snapshot(): RequestStats {
    return {
      since: this.since.toISOString(),
      ...render(this.all),
      byOperation: sortedRecord([...this.operations].map(([id, tally]) => [id, render(tally)])),
    };
  }

  reset(): void {
    this.since = this.now();
    this.all = newTally();
    this.operations = new Map();
  }

  /**
   * Counts every request it sees once answered, by the operation of `routes` it matched.
   * Goes before the fault injection, so injected 429s, 503s and resets are counted too.
   */
  middleware(routes: readonly Route[]): MiddlewareHandler {
    const operations = new Map(
      routes.map((route) => [`${route.method} ${honoPath(route.path)}`, route.operationId]),
    );
    const operationOf = (c: Parameters<MiddlewareHandler>[0]): string | undefined => {
      for (const matched of matchedRoutes(c)) {
        const id = operations.get(`${matched.method} ${matched.path}`);
        if (id !== undefined) return id;
      }
      return undefined;
    };
    return async (c, next) => {
      try {
        await next();
      } catch (error) {
        if (error instanceof ConnectionResetFault) this.record(operationOf(c), "reset");
        throw error;
      }
      this.record(operationOf(c), String(c.res.status));
    };
  }
}
