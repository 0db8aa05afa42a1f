import type { HeartbeatEvent, HeartbeatEventsResponse, HeartbeatStats } from "../../api/schemas";
import {
  HEARTBEAT_REPORT_KIND,
  type HeartbeatReport,
  type HeartbeatReportCheck,
} from "./report-schema";

/** The part of the API client that heartbeat reports read through. */
export interface HeartbeatReader {
  eventsBetween(
    checkId: string,
    from: Date,
    to: Date,
  ): Promise<{ events: HeartbeatEvent[]; stats?: HeartbeatStats | undefined }>;
  listEvents(
    checkId: string,
    query: { startTime: Date; endTime: Date; limit: number },
  ): Promise<HeartbeatEventsResponse>;
}

/** How far back the state in force at a window's start is looked for. */
const LOOKBACK_MS = 30 * 86_400_000;

/**
 * Reads one heartbeat over a window: every event in it (the client walks past the API's
 * 10-per-call cap), sorted oldest first and deduplicated by id (windows the client splits
 * may share an edge), the stats, and the last event before the window (one call of one
 * event), whose state held when the window opened.
 */
export async function collectHeartbeat(
  reader: HeartbeatReader,
  checkId: string,
  from: Date,
  to: Date,
): Promise<HeartbeatReportCheck> {
  const before = new Date(from.getTime() - 1);
  const [{ events, stats }, earlier] = await Promise.all([
    reader.eventsBetween(checkId, from, to),
    reader.listEvents(checkId, {
      startTime: new Date(from.getTime() - LOOKBACK_MS),
      endTime: before,
      limit: 1,
    }),
  ]);
  const byId = new Map(events.map((e) => [e.id, e]));
  const sorted = [...byId.values()].sort(
    (a, b) => (Date.parse(a.timestamp) || 0) - (Date.parse(b.timestamp) || 0),
  );
  return {
    checkId,
    lastEventBefore: earlier[0]?.events?.[0] ?? null,
    events: sorted,
    stats: stats ?? null,
  };
}

/** Reads every heartbeat of a report over the window, all at once. */
export async function collectHeartbeats(
  reader: HeartbeatReader,
  checks: readonly string[],
  from: Date,
  to: Date,
  now: Date = new Date(),
): Promise<HeartbeatReport> {
  const unique = [...new Set(checks)];
  const results = await Promise.all(
    unique.map((checkId) => collectHeartbeat(reader, checkId, from, to)),
  );
  return {
    kind: HEARTBEAT_REPORT_KIND,
    version: 1,
    generatedAt: now.toISOString(),
    window: { from: from.toISOString(), to: to.toISOString() },
    checks: results,
  };
}
