import { z } from "zod";
import { HeartbeatEvent, HeartbeatStats } from "../../api/schemas";

export const HEARTBEAT_REPORT_KIND = "incident-sync/heartbeats-report";

/** What a heartbeat state means (`heartbeatStateClass`): arrived is a healthy heartbeat. */
export const HeartbeatMeaning = z.enum(["arrived", "grace", "missed", "unknown"]);

/**
 * One heartbeat in the report: every event of the window, oldest first (those without a
 * readable timestamp last), the stats, and the last event before the window (its state held
 * when the window opened; null when there was none in the 30 days before).
 */
export const HeartbeatReportCheck = z.object({
  checkId: z.string(),
  lastEventBefore: HeartbeatEvent.nullable(),
  events: z.array(HeartbeatEvent),
  stats: HeartbeatStats.nullable(),
  /** The state in force at the end of the window, what it means, and since when. */
  stateAtEnd: z.object({
    state: z.string().nullable(),
    meaning: HeartbeatMeaning,
    since: z.string().nullable(),
  }),
  /** Odd values in what the API sent, each degrading one item (see `eventWarnings`). */
  warnings: z.array(z.string()),
});
export type HeartbeatReportCheck = z.infer<typeof HeartbeatReportCheck>;

/** The JSON heartbeat report (`report heartbeats --format json`). */
export const HeartbeatReport = z.object({
  kind: z.literal(HEARTBEAT_REPORT_KIND),
  version: z.literal(1),
  generatedAt: z.iso.datetime({ offset: true }),
  window: z.object({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
  }),
  /** The heartbeats' names as the checks list gave them, by id; one without a name is left out. */
  checkNames: z.record(z.string(), z.string()).optional(),
  checks: z.array(HeartbeatReportCheck),
});
export type HeartbeatReport = z.infer<typeof HeartbeatReport>;
