import type { DatabaseSync } from "node:sqlite";
import type { HeartbeatEventsResult, SuccessRatioPeriod } from "../../api/schemas";
import { statement } from "../database";
import { ErrorResponse, notFound } from "../http-error";
import { DAY_MS, toIso } from "../time";
import type { AccountStore } from "./accounts";
import { deriveEvents, type Ping } from "./heartbeat-events";

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
  /** Which end of the window `limit` keeps, and the order it is listed in. @default "newest-first" */
  order?: "newest-first" | "oldest-first";
}

const padded = (seq: number) => String(seq).padStart(12, "0");

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
   * id descending (or the reverse, `order`), at most `limit`; with the statistics of the last 24 hours and 7 days.
   * Events are derived from the pings on every read (`deriveEvents`), with stable ids.
   */
  events(accountId: string, checkId: string, window: EventsWindow, nowMs: number) {
    if (this.accounts.checkKind(accountId, checkId) !== "heartbeat") {
      throw notFound("heartbeat", checkId);
    }
    if (window.startMs > window.endMs) {
      throw new ErrorResponse(
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
    const events = deriveEvents({ accountId, checkId }, pings, settings, nowMs)
      .filter((event) => event.atMs >= window.startMs && event.atMs <= window.endMs)
      .sort((a, b) => b.atMs - a.atMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    if (window.order === "oldest-first") events.reverse();
    const listed = events.slice(0, window.limit).map(({ atMs: _atMs, ...event }) => event);
    const result: HeartbeatEventsResult = {
      events: listed,
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
