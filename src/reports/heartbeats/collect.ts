import { EventsWalkStuckError } from "../../api/errors";
import { type HeartbeatEvent, type HeartbeatStats, heartbeatEventTime } from "../../api/schemas";
import { heartbeatAbsence } from "../evidence/absent";
import type { CheckNames } from "../shared/check-names";
import {
  HEARTBEAT_REPORT_KIND,
  type HeartbeatReport,
  type HeartbeatReportCheck,
} from "./report-schema";
import { stateAtEnd } from "./state";
import { successRatiosOf } from "./stats";
import { eventWarnings } from "./warnings";

/** The part of the API client that heartbeat reports read through. */
export interface HeartbeatReader {
  eventsBetween(
    checkId: string,
    from: Date,
    to: Date,
  ): Promise<{ events: HeartbeatEvent[]; stats?: HeartbeatStats | undefined; noResult?: true }>;
  latestEvent(checkId: string, from: Date, to: Date): Promise<{ event?: HeartbeatEvent }>;
}

/** How far back the state in force at a window's start is looked for. */
const LOOKBACK_MS = 30 * 86_400_000;

/**
 * The events of the window. A walk the API cannot finish (more than a page of events at one
 * instant, or a page without readable timestamps) keeps what it read, with a warning, so
 * one odd heartbeat does not fail a report.
 */
async function readWindow(
  reader: HeartbeatReader,
  checkId: string,
  from: Date,
  to: Date,
): Promise<{ events: HeartbeatEvent[]; stats: HeartbeatStats | undefined; warnings: string[] }> {
  try {
    const read = await reader.eventsBetween(checkId, from, to);
    const absent = heartbeatAbsence(read);
    return {
      events: read.events,
      stats: read.stats,
      warnings: absent ? [`the heartbeat may not exist: ${absent}`] : [],
    };
  } catch (error) {
    if (!(error instanceof EventsWalkStuckError)) throw error;
    return {
      events: [...error.events],
      stats: undefined,
      warnings: [`only ${error.events.length} event(s) could be read: ${error.message}`],
    };
  }
}

/**
 * Oldest first by timestamp, ties by id, whatever order the service listed them in; events
 * without a readable timestamp cannot be ordered and go last, by id.
 */
function oldestFirst(events: Iterable<HeartbeatEvent>): HeartbeatEvent[] {
  const key = (event: HeartbeatEvent) => heartbeatEventTime(event) ?? Number.POSITIVE_INFINITY;
  return [...events].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x !== y) return x < y ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/**
 * One heartbeat over a window: every event (past the API's cap), oldest first, once each; the
 * stats; and the last event before the window by its time (in whatever order the service lists
 * them), whose state held when it opened.
 */
export async function collectHeartbeat(
  reader: HeartbeatReader,
  checkId: string,
  from: Date,
  to: Date,
): Promise<HeartbeatReportCheck> {
  const before = new Date(from.getTime() - 1);
  const [window, earlier] = await Promise.all([
    readWindow(reader, checkId, from, to),
    reader.latestEvent(checkId, new Date(from.getTime() - LOOKBACK_MS), before),
  ]);
  const events = oldestFirst(new Map(window.events.map((e) => [e.id, e])).values());
  const lastEventBefore = earlier.event ?? null;
  return {
    checkId,
    lastEventBefore,
    events,
    stats: window.stats ?? null,
    successRatios: successRatiosOf(window.stats),
    stateAtEnd: stateAtEnd(events, lastEventBefore),
    warnings: [...window.warnings, ...eventWarnings(events)],
  };
}

/**
 * Reads every heartbeat of a report over the window, all at once; `checkNames` (read once
 * through the checks list) name them in the report.
 */
export async function collectHeartbeats(
  reader: HeartbeatReader,
  checks: readonly string[],
  from: Date,
  to: Date,
  now: Date = new Date(),
  checkNames: CheckNames = {},
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
    checkNames: { ...checkNames },
    checks: results,
  };
}
