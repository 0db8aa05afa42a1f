import { z } from "zod";
import { ErrorGroup, IncidentStatus, IncidentUpdate, Severity } from "../../api/schemas";
import { HeartbeatReportCheck } from "../heartbeats/report-schema";

export const INCIDENT_REPORT_KIND = "incident-sync/incident-report";

const Time = z.iso.datetime({ offset: true });

/** What one line of an incident's timeline is about. */
export const TimelineKind = z.enum([
  /** An update of the incident, with or without a status. */
  "update",
  /** A heartbeat changed state. */
  "heartbeat",
  /** An error group of an evidence check was seen for the first time. */
  "error-group-first-seen",
  /** An error group of an evidence check was seen for the last time (so far). */
  "error-group-last-seen",
]);
export type TimelineKind = z.infer<typeof TimelineKind>;

/** One line of the timeline: updates, heartbeat states and error groups on one time axis. */
export const TimelineEntry = z.object({
  at: Time,
  kind: TimelineKind,
  /** The incident id, the heartbeat id or the check id. */
  source: z.string(),
  /** The update's status, the heartbeat's new state, or `new` / `earlier` for a group. */
  state: z.string().nullable(),
  /** The update, event or error group id. */
  ref: z.string().nullable(),
  text: z.string(),
  /** An update: whether it was sent to the status page's subscribers. */
  notified: z.boolean().optional(),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** An error group of an evidence check seen in the window. */
export const IncidentErrorGroup = ErrorGroup.extend({
  /** First seen between the incident's first update and its resolution (or now). */
  newDuringIncident: z.boolean(),
});
export type IncidentErrorGroup = z.infer<typeof IncidentErrorGroup>;

export const IncidentReportCheck = z.object({
  checkId: z.string(),
  /** Groups seen in the window (first seen before its end, last seen after its start). */
  groups: z.array(IncidentErrorGroup),
  /** Groups of the check not seen in the window. */
  groupsOutsideWindow: z.int().min(0),
});
export type IncidentReportCheck = z.infer<typeof IncidentReportCheck>;

export const IncidentReportHeartbeat = HeartbeatReportCheck.extend({
  /** Share (0..1) of the window spent in each state, UNKNOWN before the first known one. */
  timeInState: z.record(z.string(), z.number().min(0).max(1)),
});
export type IncidentReportHeartbeat = z.infer<typeof IncidentReportHeartbeat>;

/** One incident: what git declares, what the status page says, and what the monitors saw. */
export const IncidentReportIncident = z.object({
  id: z.string(),
  /** The definition under `incidents/`, when there is one. */
  definition: z
    .object({
      file: z.string(),
      line: z.int().min(1),
      name: z.string(),
      severity: Severity,
      status: IncidentStatus,
      services: z.array(z.string()),
      /** The services' names as the definitions give them, by id. */
      serviceNames: z.record(z.string(), z.string()).optional(),
    })
    .nullable(),
  /**
   * The incident's name and services as the status page shows them (`GET` of the incident);
   * null when the service does not answer it, so the report names them from git alone.
   */
  live: z
    .object({
      name: z.string(),
      services: z.array(z.object({ id: z.string(), name: z.string().nullish() })),
    })
    .nullable()
    .optional(),
  /** The newest status among the updates, else the declared one; null when neither exists. */
  liveStatus: IncidentStatus.nullable(),
  /** The first update. */
  startedAt: Time.nullable(),
  /** When the status last became RESOLVED, if it still is. */
  resolvedAt: Time.nullable(),
  window: z.object({ from: Time, to: Time, marginMs: z.int().min(0).nullable() }),
  evidence: z.object({ heartbeats: z.array(z.string()), checks: z.array(z.string()) }),
  /** The latest 100 updates, oldest first. */
  updates: z.array(IncidentUpdate),
  heartbeats: z.array(IncidentReportHeartbeat),
  checks: z.array(IncidentReportCheck),
  timeline: z.array(TimelineEntry),
});
export type IncidentReportIncident = z.infer<typeof IncidentReportIncident>;

/** The JSON incident report (`report incident --format json`). */
export const IncidentReport = z.object({
  kind: z.literal(INCIDENT_REPORT_KIND),
  version: z.literal(1),
  generatedAt: Time,
  /** The evidence checks' and heartbeats' names as the checks list gave them, by id. */
  checkNames: z.record(z.string(), z.string()).optional(),
  incidents: z.array(IncidentReportIncident),
});
export type IncidentReport = z.infer<typeof IncidentReport>;
