import type { IncidentStatus } from "../api";
import type { IncidentService } from "../incident";
import type { Unavailable } from "./read-backs";

/*
 * The shapes of the stack outputs, which `incident-sync up`'s report, `pulumi stack output`
 * and a project's own program read. Every output labels what git declares and what the status
 * page shows; neither is shown as the other.
 */

/** An incident in the stack outputs: what git declares, what was applied, what is live. */
export interface IncidentOutput {
  file: string;
  declared: {
    name: string;
    severity: string;
    status: IncidentStatus;
    services: IncidentService[];
  };
  /** The status the last apply set (or a refresh found), and the server time of that apply. */
  applied: { status: IncidentStatus; at: string };
  /** The live status this run read: `source` says where from; `unavailable` when the read failed. */
  live:
    | { status: IncidentStatus | null; source: "update" | "applied" | "none"; since: string | null }
    | Unavailable;
}

export interface DriftEntry {
  incidentId: string;
  file: string;
  declaredStatus: IncidentStatus;
  /** `unknown` when the updates could not be read in this run. */
  liveStatus: IncidentStatus | "unknown";
  /** When the last apply happened (server time of its PUT). */
  appliedAt: string;
  /** Updates posted since the last apply, i.e. outside git, newest first. */
  updatesOutsideGit: {
    id: string | null;
    at: string;
    status: string | null;
    description: string;
  }[];
  /** Why the live status is unknown, when it is. */
  reason?: string;
}
