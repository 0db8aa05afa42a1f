import type { DatabaseSync } from "node:sqlite";
import type {
  HeartbeatEvent,
  HeartbeatEventsResult,
  HeartbeatState,
  SuccessRatioPeriod,
} from "../../api/schemas";
import { statement } from "../database";
import { ApiError, notFound } from "../http-error";
import { DAY_MS, formatDuration, toIso } from "../time";
import type { AccountStore, HeartbeatSettings } from "./accounts";

export interface NewPing {
  atMs: number;
  ok: boolean;
  source?: string | undefined;
  userAgent?: string | undefined;
}

export interface EventsWindow {
  startMs: number;
  endMs: number;
  limit: number;
}

interface Ping {
  seq: number;
  atMs: number;
  ok: boolean;
  source: string;
  userAgent: string;
}

interface DerivedEvent extends HeartbeatEvent {
  atMs: number;
}

/** Source and user agent of the FAILING event the emulator derives from a missed ping. */
export const MISSED_PING_USER_AGENT = "incident-sync-emulator";

const padded = (seq: number) => String(seq).padStart(12, "0");

function describeMissed(settings: HeartbeatSettings): string {
  const grace = settings.graceMs > 0 ? ` + ${formatDuration(settings.graceMs)} grace` : "";
  return `missed: no ping within ${formatDuration(settings.periodMs ?? 0)}${grace}`;
}

/**
 * Derives the state changes of a heartbeat from its pings, oldest first.
 *
 * - A ping with `ok: true` makes the heartbeat PASSING, with `ok: false` FAILING.
 * - With a period, a heartbeat that gets no ping for `period + grace` after its last
 *   ping becomes FAILING at that deadline (if the deadline is not in the future).
 * - An event is emitted only when the state changes; the first ping always emits one.
 *
 * Event ids are `hbe_<ping sequence>` for ping events and `hbm_<sequence of the last
 * ping before the gap>` for missed pings, zero-padded so string order is creation order.
 */
export function deriveEvents(
  pings: readonly Ping[],
  settings: HeartbeatSettings,
  nowMs: number,
): DerivedEvent[] {
  const events: DerivedEvent[] = [];
  let state: HeartbeatState | undefined;
  let previous: Ping | undefined;
  const missAfter = settings.periodMs === null ? null : settings.periodMs + settings.graceMs;
  const checkMissed = (untilMs: number) => {
    if (missAfter === null || previous === undefined || state === "FAILING") return;
    const deadline = previous.atMs + missAfter;
    if (untilMs <= deadline || deadline > nowMs) return;
    state = "FAILING";
    events.push({
      id: `hbm_${padded(previous.seq)}`,
      state,
      atMs: deadline,
      timestamp: toIso(deadline),
      source: describeMissed(settings),
      userAgent: MISSED_PING_USER_AGENT,
    });
  };
  for (const ping of pings) {
    checkMissed(ping.atMs);
    const next: HeartbeatState = ping.ok ? "PASSING" : "FAILING";
    if (next !== state) {
      state = next;
      events.push({
        id: `hbe_${padded(ping.seq)}`,
        state,
        atMs: ping.atMs,
        timestamp: toIso(ping.atMs),
        source: ping.source,
        userAgent: ping.userAgent,
      });
    }
    previous = ping;
  }
  checkMissed(Number.POSITIVE_INFINITY);
  return events;
}

/** Heartbeat pings, the events derived from them and their success-ratio statistics. */
export class HeartbeatStore {
  constructor(
    private readonly db: DatabaseSync,
    private readonly accounts: AccountStore,
  ) {}

  recordPing(accountId: string, checkId: string, ping: NewPing): { id: string } {
    this.accounts.ensureCheck(accountId, checkId, "heartbeat");
    const result = statement(
      this.db,
      `INSERT INTO heartbeat_pings (account_id, check_id, at_ms, ok, source, user_agent)
         VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      accountId,
      checkId,
      ping.atMs,
      ping.ok ? 1 : 0,
      ping.source ?? "api",
      ping.userAgent ?? "",
    );
    return { id: `hbp_${padded(Number(result.lastInsertRowid))}` };
  }

  /**
   * Spec 4.3: the events inside `[startMs, endMs]` (both inclusive), newest first, ties by
   * id descending, at most `limit`; with the statistics of the last 24 hours and 7 days.
   */
  events(accountId: string, checkId: string, window: EventsWindow, nowMs: number) {
    if (this.accounts.checkKind(accountId, checkId) !== "heartbeat") {
      throw notFound("heartbeat", checkId);
    }
    if (window.startMs > window.endMs) {
      throw new ApiError(
        400,
        `startTime ${toIso(window.startMs)} is after endTime ${toIso(window.endMs)}: send a startTime before the endTime`,
      );
    }
    const pings = statement(
      this.db,
      `SELECT seq, at_ms, ok, source, user_agent FROM heartbeat_pings
         WHERE account_id = ? AND check_id = ? ORDER BY at_ms, seq`,
    )
      .all(accountId, checkId)
      .map(
        (row): Ping => ({
          seq: Number(row.seq),
          atMs: Number(row.at_ms),
          ok: Number(row.ok) === 1,
          source: String(row.source),
          userAgent: String(row.user_agent),
        }),
      );
    const settings = this.accounts.heartbeatSettings(accountId, checkId);
    const events = deriveEvents(pings, settings, nowMs)
      .filter((event) => event.atMs >= window.startMs && event.atMs <= window.endMs)
      .sort((a, b) => b.atMs - a.atMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, window.limit)
      .map(({ atMs: _atMs, ...event }) => event);
    const result: HeartbeatEventsResult = {
      events,
      stats: {
        last24Hours: this.period(accountId, checkId, nowMs, DAY_MS),
        last7Days: this.period(accountId, checkId, nowMs, 7 * DAY_MS),
      },
    };
    return [result];
  }

  /**
   * Success ratio in percent (0..100, two decimals) of the pings in `(now - length, now]`
   * and in the period of the same length before it. A period without pings has ratio 0.
   */
  private period(
    accountId: string,
    checkId: string,
    nowMs: number,
    lengthMs: number,
  ): SuccessRatioPeriod {
    const counts = statement(
      this.db,
      `SELECT COUNT(*) AS total, COALESCE(SUM(ok), 0) AS ok FROM heartbeat_pings
       WHERE account_id = ? AND check_id = ? AND at_ms > ? AND at_ms <= ?`,
    );
    const count = (fromMs: number, toMs: number) => {
      const row = counts.get(accountId, checkId, fromMs, toMs);
      return { total: Number(row?.total ?? 0), ok: Number(row?.ok ?? 0) };
    };
    const ratio = ({ total, ok }: { total: number; ok: number }) =>
      total === 0 ? 0 : Math.round((ok / total) * 10_000) / 100;
    const current = count(nowMs - lengthMs, nowMs);
    const previous = count(nowMs - 2 * lengthMs, nowMs - lengthMs);
    return {
      successRatio: { previousPeriod: ratio(previous), currentPeriod: ratio(current) },
      totalEntitiesCurrentPeriod: current.total,
    };
  }
}
