import type { HeartbeatState } from "../../api/schemas";
import { nameUuid } from "../name-uuid";
import { formatSeedDuration, toIso } from "../time";
import type { HeartbeatSettings } from "./accounts";

/** A recorded ping, as the store reads it back. */
export interface Ping {
  seq: number;
  atMs: number;
  ok: boolean;
  source: string;
  userAgent: string;
}

/** An event as the emulator answers it: every field present, one of the five states. */
export interface DerivedEvent {
  id: string;
  state: HeartbeatState;
  timestamp: string;
  source: string;
  userAgent: string;
  atMs: number;
}

/** User agent of the GRACE and LATE events the emulator derives from silence. */
export const MISSED_PING_USER_AGENT = "incident-sync-emulator";

/** Which heartbeat an id belongs to: ids are unique per account and check. */
export interface HeartbeatKey {
  accountId: string;
  checkId: string;
}

/**
 * Derives the state changes of a heartbeat from its pings (oldest first, ties by sequence),
 * oldest first. The service's reference names the states; how the emulator derives them is
 * our decision:
 *
 * - A ping with `ok: false` is the job reporting failure: FAILING.
 * - A ping with `ok: true` arrived: EARLY when the heartbeat has a period and the ping came
 *   less than half a period after the previous ping (of any kind), else RECEIVED. A ping
 *   that comes during the grace period is RECEIVED too: it arrived.
 * - Silence after an arrived ping, with a period: at `last ping + period` the ping is
 *   overdue, GRACE (only when grace > 0); at `last ping + period + grace` it is missed, LATE.
 *   So LATE means missed and FAILING means reported failing. Each is emitted only once its
 *   instant is not after `nowMs`.
 * - Silence after a FAILING ping keeps the heartbeat FAILING: it is no better for being
 *   late, and a GRACE there would read as a recovery.
 * - An event is emitted only when the state changes; the first ping always emits one.
 *
 * Event ids are UUIDs (version 5) named after the account, the check, the kind of event and
 * the sequence of the ping it comes from (`acct/check/ping/7`, `acct/check/late/7` for the
 * silence after ping 7): the same pings always give the same ids, so paging by time and
 * dropping repeats by id works across reads.
 */
export function deriveEvents(
  heartbeat: HeartbeatKey,
  pings: readonly Ping[],
  settings: HeartbeatSettings,
  nowMs: number,
): DerivedEvent[] {
  const events: DerivedEvent[] = [];
  const idOf = (kind: "ping" | "grace" | "late", seq: number) =>
    nameUuid(`${heartbeat.accountId}/${heartbeat.checkId}/${kind}/${seq}`);
  let state: HeartbeatState | undefined;
  let previous: Ping | undefined;
  const emit = (next: HeartbeatState, event: Omit<DerivedEvent, "state" | "timestamp">) => {
    if (next === state) return;
    state = next;
    events.push({ ...event, state: next, timestamp: toIso(event.atMs) });
  };

  /** The GRACE and LATE events of the silence after `previous`, up to (not at) `untilMs`. */
  const silence = (untilMs: number) => {
    if (settings.periodMs === null || previous === undefined || state === "FAILING") return;
    const overdue = previous.atMs + settings.periodMs;
    const missed = overdue + settings.graceMs;
    const period = formatSeedDuration(settings.periodMs);
    const grace = formatSeedDuration(settings.graceMs);
    if (settings.graceMs > 0 && overdue < untilMs && overdue <= nowMs) {
      emit("GRACE", {
        id: idOf("grace", previous.seq),
        atMs: overdue,
        source: `overdue: no ping within ${period}, in the ${grace} grace period`,
        userAgent: MISSED_PING_USER_AGENT,
      });
    }
    if (missed < untilMs && missed <= nowMs) {
      emit("LATE", {
        id: idOf("late", previous.seq),
        atMs: missed,
        source: `missed: no ping within ${period}${settings.graceMs > 0 ? ` + ${grace} grace` : ""}`,
        userAgent: MISSED_PING_USER_AGENT,
      });
    }
  };

  for (const ping of pings) {
    silence(ping.atMs);
    const early =
      settings.periodMs !== null &&
      previous !== undefined &&
      ping.atMs - previous.atMs < settings.periodMs / 2;
    emit(ping.ok ? (early ? "EARLY" : "RECEIVED") : "FAILING", {
      id: idOf("ping", ping.seq),
      atMs: ping.atMs,
      source: ping.source,
      userAgent: ping.userAgent,
    });
    previous = ping;
  }
  silence(Number.POSITIVE_INFINITY);
  return events;
}
