import type * as pulumi from "@pulumi/pulumi";
import type { IncidentStatus, IncidentUpdate } from "../src/api";
import type { IncidentDeclaration, Observation } from "../src/incident";
import type { ProviderSession } from "./provider-session";

/** Inputs as the provider receives them (after `check`). */
export interface IncidentInputs extends IncidentDeclaration {
  /** The incident-sync release that declared them: a new release re-applies and re-records. */
  providerVersion: string;
  /** What the program read of the incident in this run (absent with `readBack: open` for resolved incidents). */
  observed?: Observation;
  /**
   * A new incident (no `incidentId`): what the program read of the service's incidents that
   * may be the one it opened, by id. The provider takes the one its state names.
   */
  candidates?: Record<string, Observation>;
  /** Record the incident in the state, apply nothing: the claim run of `src/incident/claim.ts`. */
  claimOnly?: true;
}

/** The live status as the provider last knew it. */
export interface KnownLiveStatus {
  status: IncidentStatus;
  /** When it was known: the PUT's server time, or the refresh's read. */
  at: string;
  /** `update`: an update posted on the status page says so; `applied`: the last PUT set it. */
  source: "update" | "applied";
}

/** State of an applied incident: its declaration plus what the server said. */
export interface IncidentState extends IncidentDeclaration {
  /** The incident on the status page; empty for a new one claimed and not yet opened. */
  incidentId: string;
  providerVersion: string;
  /** Server time of the last apply (`updated_at`), else the provider's clock. */
  appliedAt: string;
  live: KnownLiveStatus;
  /**
   * The updates the last apply made that the program had not read before it (at most a few,
   * usually none or those it posted), so the outputs describe the status page after the apply
   * without reading it again.
   */
  appliedUpdates: IncidentUpdate[];
  /** With `updates`: the id of each entry's update on the status page, in the same order. */
  updateIds?: string[];
  /**
   * Claimed, not yet applied (`src/incident/claim.ts`): `appliedAt` is empty and `live` is the
   * declared status, known to nobody. The next update adopts (or opens) the incident.
   */
  claimed?: true;
  /** A new incident claimed before it was opened: when, so a run stopped midway finds it. */
  intentAt?: string;
}

/** The provider as the dynamic provider plugin calls it, and the session it keeps. */
export type IncidentProvider = pulumi.dynamic.ResourceProvider<IncidentInputs, IncidentState> &
  ProviderSession;
