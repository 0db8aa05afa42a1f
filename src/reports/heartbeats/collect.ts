import type { HeartbeatEvent, HeartbeatStats } from "../../api/schemas";
import { HEARTBEAT_REPORT_KIND, type HeartbeatReport } from "./report-schema";

/** The part of the API client that heartbeat reports read through. */
export interface HeartbeatReader {
  eventsBetween(
    checkId: string,
    from: Date,
    to: Date,
  ): Promise<{ events: HeartbeatEvent[]; stats?: HeartbeatStats | undefined }>;
}

/**
 * Reads every event of each heartbeat in the window (the client walks past the API's
 * 10-per-call cap) with its stats, all checks at once. Events are sorted oldest first and
 * deduplicated by id, since windows the client splits may share an edge.
 */
export async function collectHeartbeats(
  reader: HeartbeatReader,
  checks: readonly string[],
  from: Date,
  to: Date,
  now: Date = new Date(),
): Promise<HeartbeatReport> {
  const unique = [...new Set(checks)];
  const results = await Promise.all(
    unique.map(async (checkId) => {
      const { events, stats } = await reader.eventsBetween(checkId, from, to);
      const byId = new Map(events.map((e) => [e.id, e]));
      const sorted = [...byId.values()].sort(
        (a, b) => (Date.parse(a.timestamp) || 0) - (Date.parse(b.timestamp) || 0),
      );
      return { checkId, events: sorted, stats: stats ?? null };
    }),
  );
  return {
    kind: HEARTBEAT_REPORT_KIND,
    version: 1,
    generatedAt: now.toISOString(),
    window: { from: from.toISOString(), to: to.toISOString() },
    checks: results,
  };
}
