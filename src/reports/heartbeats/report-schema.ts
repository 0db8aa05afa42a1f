import { z } from "zod";
import { HeartbeatEvent, HeartbeatStats } from "../../api/schemas";

export const HEARTBEAT_REPORT_KIND = "incident-sync/heartbeats-report";

/**
 * One side of a period as the report reads it (`successRatiosOf`): the API's percentage, or
 * null with `note: "no pings"` for a period known to have none; `note: "maybe no pings"` for
 * a 0 % the API also gives a period with no pings, when nothing tells the two apart.
 */
export const PeriodSide = z.object({
  ratio: z.number().nullable(),
  /** Pings in the period: the API's count (current period), 0 when known; else null. */
  pings: z.number().nullable(),
  note: z.enum(["no pings", "maybe no pings"]).nullable(),
});
export type PeriodSide = z.infer<typeof PeriodSide>;

/** A period's two sides and the change between them: null when no trend can be drawn. */
export const PeriodSuccess = z.object({
  current: PeriodSide,
  previous: PeriodSide,
  /** Percentage points, current minus previous; null when a side has (or may have) no pings. */
  change: z.number().nullable(),
});
export type PeriodSuccess = z.infer<typeof PeriodSuccess>;

export const SuccessRatios = z.object({ last24Hours: PeriodSuccess, last7Days: PeriodSuccess });
export type SuccessRatios = z.infer<typeof SuccessRatios>;

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
  /** The stats as the report reads them (`stats` stays as the API sent it). */
  successRatios: SuccessRatios,
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
