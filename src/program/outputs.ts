// The schemas alone, not the client: `incident-sync up`'s report loads this module too.
import { IncidentStatus, type IncidentUpdate } from "../api/schemas";
import type { AppliedStatus, DriftEntry, IncidentService, LiveOutput } from "../incident";
import { driftVerdict } from "../incident/drift";
import type { OutputsMode } from "../settings";
import type { ErrorGroupsReadBack, HeartbeatReadBack, Unavailable } from "./read-backs";

/*
 * The shapes of the stack outputs, which `incident-sync up`'s report, `pulumi stack output`
 * and a project's own program read. Every output labels what git declares and what the status
 * page shows; neither is shown as the other.
 */

/** An incident in the stack outputs: what git declares, what was applied, what is live. */
export interface IncidentOutput {
  file: string;
  /** The Pulumi resource name: how git names a new incident before the service gives its id. */
  resource: string;
  declared: {
    name: string;
    severity: string;
    status: IncidentStatus;
    services: IncidentService[];
  };
  /** The status the last apply set (or a refresh found), and the server time of that apply. */
  applied: AppliedStatus;
  /** The live status this run read: `source` says where from; `unavailable` when the read failed. */
  live: LiveOutput | Unavailable;
}

/** An entry of the `drift` output: the one drift model's, built in `src/incident`. */
export type { DriftEntry } from "../incident";

/**
 * The stack in counts: the `summary` output, the same in both modes of `incident-sync:outputs`,
 * so a consumer can rely on it whichever the stack exports.
 *
 * @example
 * // pulumi stack output summary --json
 * {
 *   "outputs": "summary",
 *   "incidents": 4,
 *   "declared": { "INVESTIGATING": 1, "IDENTIFIED": 0, "MONITORING": 1, "RESOLVED": 2 },
 *   "live": { "INVESTIGATING": 1, "IDENTIFIED": 0, "MONITORING": 1, "RESOLVED": 2, "unknown": 0, "notRead": 0 },
 *   "drifted": 0
 * }
 */
export interface SummaryOutput {
  /**
   * The `incident-sync:outputs` the run exported under: with `full` the stack also has
   * `incidents` and `incidentUpdates`, and each heartbeat its `events`.
   */
  outputs: OutputsMode;
  /** The incidents this stack declares. */
  incidents: number;
  /** The declared incidents by declared status; every status is a key. */
  declared: Record<IncidentStatus, number>;
  /**
   * The incidents by live status as this run left them, every key present. `unknown`: unread or
   * a status we do not know (each in `drift`); `notRead`: left out by `readBack: open`.
   */
  live: Record<LiveCount, number>;
  /** The incidents whose live status is known and differs from the declared one: `drift`'s entries less its unknowns. */
  drifted: number;
}

/**
 * How the `summary` output counts an incident's live status, in the order of an incident's
 * life: every key of `SummaryOutput.live`, and the order `incident-sync up` prints them in.
 */
export const LIVE_COUNTS = [...IncidentStatus.options, "unknown", "notRead"] as const;
export type LiveCount = (typeof LIVE_COUNTS)[number];

/** A heartbeat as `outputs: summary` exports it: its window, count and stats, without its events. */
export type HeartbeatSummary = Omit<HeartbeatReadBack, "events">;

/** The stack outputs' values, as `pulumi stack output --json` shows them. */
export interface StackOutputs {
  accountId: string;
  summary: SummaryOutput;
  /**
   * The incidents whose live status differs from the declared one, or is unknown, or whose
   * name, severity or services differ on the status page; normally none.
   */
  drift: DriftEntry[];
  /** Per check in any `evidence.checks`. */
  errorGroups: Record<string, ErrorGroupsReadBack | Unavailable>;
  /** Per heartbeat in any `evidence.heartbeats`; with `outputs: summary`, without the events. */
  heartbeats: Record<string, HeartbeatReadBack | HeartbeatSummary | Unavailable>;
  /** Per incident id, with `outputs: full` only. */
  incidents?: Record<string, IncidentOutput>;
  /** Per incident id, its latest 100 updates, newest first; with `outputs: full` only. */
  incidentUpdates?: Record<string, IncidentUpdate[] | Unavailable>;
}

/** The `summary` output of one run's read-backs, one per declared incident. */
export function summaryOf(
  incidents: readonly { output: IncidentOutput; live: LiveCount; drift: DriftEntry | undefined }[],
  outputs: OutputsMode,
): SummaryOutput {
  const declared = countsOf<IncidentStatus>(IncidentStatus.options);
  const live = countsOf<LiveCount>(LIVE_COUNTS);
  let drifted = 0;
  for (const incident of incidents) {
    declared[incident.output.declared.status] += 1;
    live[incident.live] += 1;
    if (incident.drift && driftVerdict(incident.drift) === "drifted") drifted += 1;
  }
  return { outputs, incidents: incidents.length, declared, live, drifted };
}

/** The heartbeats as `outputs: summary` exports them: each without its events. */
export function heartbeatsSummary(
  heartbeats: Record<string, HeartbeatReadBack | Unavailable>,
): Record<string, HeartbeatSummary | Unavailable> {
  return Object.fromEntries(
    Object.entries(heartbeats).map(([id, heartbeat]) => {
      if ("unavailable" in heartbeat) return [id, heartbeat];
      const { events: _events, ...summary } = heartbeat;
      return [id, summary];
    }),
  );
}

function countsOf<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}
