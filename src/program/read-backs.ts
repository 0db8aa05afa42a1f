import * as pulumi from "@pulumi/pulumi";
import type {
  ErrorGroup,
  HeartbeatEvent,
  HeartbeatStats,
  IncidentStatus,
  IncidentUpdate,
  MonitoringClient,
} from "../api";
import { liveStatusOf, updatesAfter, updateTime } from "./live-status";

/** How far back heartbeat events are read. */
export const HEARTBEAT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Error groups shown per check, most recently seen first (the API's order). */
export const TOP_ERROR_GROUPS = 5;

export interface HeartbeatReadBack {
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
  firstSeen: string;
  lastSeen: string;
  archived: boolean;
}

export interface ErrorGroupsReadBack {
  count: number;
  archivedCount: number;
  pages: number;
  top: ErrorGroupSummary[];
}

export interface DriftEntry {
  incidentId: string;
  declaredStatus: string;
  liveStatus: string;
  /** When the last apply happened (server time of its PUT). */
  appliedAt: string;
  /** Updates posted since the last apply, i.e. outside git. */
  updatesOutsideGit: {
    id: string | null;
    at: string;
    status: string | null;
    description: string;
  }[];
}

export { updateTime } from "./live-status";

/**
 * Drift of one incident: the live status (the newest update with a status posted after the
 * last apply, else the status the apply set) against the declared one, and every update posted
 * after the last apply. `undefined` when nothing drifted.
 */
export function driftOf(
  incidentId: string,
  declaredStatus: IncidentStatus,
  appliedStatus: IncidentStatus,
  appliedAt: string,
  updates: IncidentUpdate[],
): DriftEntry | undefined {
  const outside = updatesAfter(updates, appliedAt);
  const liveStatus = liveStatusOf(outside, appliedStatus);
  if (liveStatus === declaredStatus && outside.length === 0) return undefined;
  return {
    incidentId,
    declaredStatus,
    liveStatus,
    appliedAt,
    updatesOutsideGit: outside.map((update) => ({
      id: update.id ?? null,
      at: new Date(updateTime(update)).toISOString(),
      status: update.status ?? null,
      description: update.description,
    })),
  };
}

/** Events of the last day and the success-ratio stats of one heartbeat check. */
export async function readHeartbeat(
  client: MonitoringClient,
  checkId: string,
  now: Date,
): Promise<HeartbeatReadBack> {
  const from = new Date(now.getTime() - HEARTBEAT_WINDOW_MS);
  const { events, stats } = await client.heartbeats.eventsBetween(checkId, from, now);
  return {
    windowHours: HEARTBEAT_WINDOW_MS / 3_600_000,
    eventCount: events.length,
    events,
    stats: stats ?? null,
  };
}

/** Every error group of one check, every page, summed up with the most recent groups. */
export async function readErrorGroups(
  client: MonitoringClient,
  checkId: string,
): Promise<ErrorGroupsReadBack> {
  let count = 0;
  let archivedCount = 0;
  let pages = 0;
  const top: ErrorGroupSummary[] = [];
  for await (const group of client.errorGroups.allForCheck(checkId, {
    onPage: (page) => {
      pages = page;
    },
  })) {
    count += 1;
    if (group.archivedUntilNextEvent) archivedCount += 1;
    if (top.length < TOP_ERROR_GROUPS) top.push(summarize(group));
  }
  return { count, archivedCount, pages, top };
}

function summarize(group: ErrorGroup): ErrorGroupSummary {
  return {
    id: group.id,
    errorHash: group.errorHash,
    message: group.cleanedErrorMessage,
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
