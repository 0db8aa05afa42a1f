import * as pulumi from "@pulumi/pulumi";
import {
  ApiError,
  type ErrorGroup,
  type HeartbeatEvent,
  type HeartbeatStats,
  type IncidentUpdate,
  type MonitoringClient,
  NotFoundError,
} from "../api";
import { checkAbsence, heartbeatAbsence } from "../reports/evidence/absent";
import { runErrorMessage } from "../settings";

/** How far back heartbeat events are read. */
export const HEARTBEAT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Error groups shown per check, most recently seen first. */
export const TOP_ERROR_GROUPS = 5;

/**
 * A read-back is observation, not desired state: when it fails after the client's retries,
 * the run goes on and the output says so. `missing` is a 404: the id does not exist.
 */
export type ReadBack<T> =
  | { ok: true; value: T }
  /** `skipped`: not read on purpose (a setting), as opposed to a read that failed. */
  | { ok: false; missing: boolean; reason: string; skipped?: boolean };

/** What an output shows of a read that failed. */
export interface Unavailable {
  unavailable: string;
}

export interface HeartbeatReadBack {
  /** The heartbeat's name, as the checks list gives it; absent when it gives none. */
  name?: string;
  /** Length of the window read, ending at the run; its times stay out so outputs are stable between runs. */
  windowHours: number;
  eventCount: number;
  events: HeartbeatEvent[];
  stats: HeartbeatStats | null;
}

export interface ErrorGroupSummary {
  id: string;
  errorHash: string;
  message: string;
  rawMessage: string | null;
  firstSeen: string;
  lastSeen: string;
  archived: boolean;
}

export interface ErrorGroupsReadBack {
  /** The check's name, as the checks list gives it; absent when it gives none. */
  name?: string;
  count: number;
  archivedCount: number;
  pages: number;
  top: ErrorGroupSummary[];
}

/**
 * Runs one read and settles it: API failures become a `ReadBack` that says why, so no read
 * ever rejects (a rejected read would end the program and, unhandled, the process). Errors
 * that are not API errors are bugs and are thrown.
 */
export async function settle<T>(read: () => Promise<T>): Promise<ReadBack<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, missing: error instanceof NotFoundError, reason: runErrorMessage(error) };
  }
}

/** The 100 latest updates of an incident, newest first. */
export function readIncidentUpdates(
  client: MonitoringClient,
  incidentId: string,
): Promise<ReadBack<IncidentUpdate[]>> {
  return settle(() => client.incidents.listUpdates(incidentId));
}

/** A read of evidence, and why it suggests the heartbeat or check does not exist, if it does. */
export interface EvidenceRead<T> {
  value: T;
  absent?: string;
}

/** Events of the last day, newest first, and the success-ratio stats of one heartbeat check. */
export async function readHeartbeat(
  client: MonitoringClient,
  checkId: string,
  now: Date,
): Promise<EvidenceRead<HeartbeatReadBack>> {
  const from = new Date(now.getTime() - HEARTBEAT_WINDOW_MS);
  const read = await client.heartbeats.eventsBetween(checkId, from, now);
  const absent = heartbeatAbsence(read);
  return {
    value: {
      windowHours: HEARTBEAT_WINDOW_MS / 3_600_000,
      eventCount: read.events.length,
      events: read.events,
      stats: read.stats ?? null,
    },
    ...(absent ? { absent } : {}),
  };
}

/**
 * Every error group of one check, every page, summed up with the most recently seen groups
 * (by `lastSeen`, whatever order the service lists them in).
 */
export async function readErrorGroups(
  client: MonitoringClient,
  checkId: string,
): Promise<EvidenceRead<ErrorGroupsReadBack>> {
  let count = 0;
  let archivedCount = 0;
  let pages = 0;
  let top: ErrorGroupSummary[] = [];
  for await (const group of client.errorGroups.allForCheck(checkId, {
    onPage: (page) => {
      pages = page;
    },
  })) {
    count += 1;
    if (group.archivedUntilNextEvent) archivedCount += 1;
    top = [...top, summarize(group)]
      .sort((a, b) => b.lastSeen.localeCompare(a.lastSeen) || a.id.localeCompare(b.id))
      .slice(0, TOP_ERROR_GROUPS);
  }
  const absent = checkAbsence({ count });
  return { value: { count, archivedCount, pages, top }, ...(absent ? { absent } : {}) };
}

function summarize(group: ErrorGroup): ErrorGroupSummary {
  return {
    id: group.id,
    errorHash: group.errorHash,
    message: group.cleanedErrorMessage,
    rawMessage: group.rawErrorMessage,
    firstSeen: new Date(group.firstSeen).toISOString(),
    lastSeen: new Date(group.lastSeen).toISOString(),
    archived: group.archivedUntilNextEvent,
  };
}

/**
 * Read-back data comes from the API, never from the key, yet every read runs inside the
 * key's `apply`, which marks the result secret. Unsecreting it keeps the evidence readable
 * in `pulumi stack output` and in the summary; the key itself stays a secret.
 */
export function readBack<T>(
  client: pulumi.Output<MonitoringClient>,
  read: (client: MonitoringClient) => Promise<T>,
): pulumi.Output<T> {
  return pulumi.unsecret(client.apply(read) as pulumi.Output<T>);
}
