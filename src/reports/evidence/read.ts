import { NotFoundError } from "../../api/errors";
import {
  type ErrorGroup,
  type HeartbeatEvent,
  type HeartbeatStats,
  heartbeatEventTime,
} from "../../api/schemas";
import { checkAbsence, heartbeatAbsence } from "./absent";

/** The parts of the API client an evidence line reads through. */
export interface EvidenceReader {
  heartbeats: {
    latestEvent(
      checkId: string,
      from: Date,
      to: Date,
    ): Promise<{ event?: HeartbeatEvent; stats?: HeartbeatStats; noResult?: true }>;
  };
  errorGroups: { allForCheck(checkId: string): AsyncIterable<ErrorGroup> };
}

/** A heartbeat now: its state and since when, and the API's success ratio over 24 h. */
export interface HeartbeatEvidence {
  checkId: string;
  /** Whether an event was found in the 30 days looked back. */
  found: boolean;
  /** The newest event's state as sent; null when it has none (or there is no event). */
  state: string | null;
  /** When the newest event happened, ISO UTC; null when its timestamp is missing or unreadable. */
  since: string | null;
  /** Percent, 0..100, as the API gives it. */
  successRatio24h: number | null;
  error?: string;
  /** Why it may not exist, beyond a 404 (`heartbeatAbsence`). */
  absent?: string;
}

/** A check's error groups of the last hour. */
export interface CheckEvidence {
  checkId: string;
  /** First seen in the last hour. */
  newInLastHour: number;
  /** Last seen in the last hour. */
  seenInLastHour: number;
  error?: string;
  /** Why it may not exist, beyond a 404 (`checkAbsence`). */
  absent?: string;
}

export interface IncidentEvidence {
  heartbeats: HeartbeatEvidence[];
  checks: CheckEvidence[];
}

const HOUR = 3_600_000;
const LOOKBACK_MS = 30 * 24 * HOUR;

/** A failed read becomes a note on the line, so one missing monitor does not hide the rest. */
function reason(error: unknown): string {
  if (error instanceof NotFoundError) return "not found in this account, 404";
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!;
}

async function heartbeatNow(
  reader: EvidenceReader,
  checkId: string,
  now: Date,
): Promise<HeartbeatEvidence> {
  try {
    const read = await reader.heartbeats.latestEvent(
      checkId,
      new Date(now.getTime() - LOOKBACK_MS),
      now,
    );
    const latest = read.event;
    const since = latest ? heartbeatEventTime(latest) : undefined;
    const absent = heartbeatAbsence(read);
    return {
      checkId,
      found: latest !== undefined,
      state: latest?.state ?? null,
      since: since === undefined ? null : new Date(since).toISOString(),
      successRatio24h: read.stats?.last24Hours?.successRatio?.currentPeriod ?? null,
      ...(absent ? { absent } : {}),
    };
  } catch (error) {
    return {
      checkId,
      found: false,
      state: null,
      since: null,
      successRatio24h: null,
      error: reason(error),
    };
  }
}

/**
 * Counts a check's groups of the last hour. Every group is read (the client bounds the pages):
 * the service's order is not one to stop on.
 */
async function checkLastHour(
  reader: EvidenceReader,
  checkId: string,
  now: Date,
): Promise<CheckEvidence> {
  const hourAgo = now.getTime() - HOUR;
  let fresh = 0;
  let seen = 0;
  let listed = 0;
  try {
    for await (const group of reader.errorGroups.allForCheck(checkId)) {
      listed += 1;
      if (!(Date.parse(group.lastSeen) >= hourAgo)) continue;
      seen += 1;
      if (Date.parse(group.firstSeen) >= hourAgo) fresh += 1;
    }
    const absent = checkAbsence({ count: listed });
    return {
      checkId,
      newInLastHour: fresh,
      seenInLastHour: seen,
      ...(absent ? { absent } : {}),
    };
  } catch (error) {
    return { checkId, newInLastHour: fresh, seenInLastHour: seen, error: reason(error) };
  }
}

/** Reads what the monitors of one incident's evidence say now, all at once. */
export async function readEvidence(
  reader: EvidenceReader,
  evidence: { heartbeats?: readonly string[]; checks?: readonly string[] },
  now: Date,
): Promise<IncidentEvidence> {
  const [heartbeats, checks] = await Promise.all([
    Promise.all((evidence.heartbeats ?? []).map((id) => heartbeatNow(reader, id, now))),
    Promise.all((evidence.checks ?? []).map((id) => checkLastHour(reader, id, now))),
  ]);
  return { heartbeats, checks };
}
