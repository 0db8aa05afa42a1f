import { z } from "zod";
import { INCIDENT_NAME_MAX, IncidentStatus, MaintenanceStatus, Severity } from "../api/schemas";
import { SeedDuration, SeedInstant } from "./seed-schema";

/**
 * Bodies and answers of the control API (`/_control`): validation, the types of
 * `emulator.control` and the control part of `/openapi.json` all come from these.
 */

/** When something happened: an ISO date-time, `now` or a relative time (`-2h`); default now. */
const At = SeedInstant.optional();

export const NewIncidentUpdateBody = z.strictObject({
  description: z.string().min(1),
  status: IncidentStatus.optional(),
  notifySubscribers: z.boolean().optional(),
  at: At,
});
export type NewIncidentUpdateBody = z.input<typeof NewIncidentUpdateBody>;

/**
 * An edit made in the status page UI: any of name, severity, services (ids of the
 * account's services) and status; nothing sent, nothing changed.
 */
export const IncidentEditBody = z.strictObject({
  name: z.string().min(1).max(INCIDENT_NAME_MAX).optional(),
  severity: Severity.optional(),
  services: z.array(z.string().min(1)).min(1).optional(),
  status: IncidentStatus.optional(),
  at: At,
});
export type IncidentEditBody = z.input<typeof IncidentEditBody>;

export const CheckResultBody = z.strictObject({
  at: At,
  /** The error message; `null` records a passing result. */
  error: z.string().max(65_536).nullable(),
});
export type CheckResultBody = z.input<typeof CheckResultBody>;

export const BulkCheckResultsBody = z.strictObject({
  results: z
    .array(CheckResultBody.extend({ checkId: z.string().min(1) }))
    .min(1)
    .max(100_000),
});

export const GenerateErrorGroupsBody = z.strictObject({
  count: z.int().min(1).max(100_000),
  at: At,
});

export const HeartbeatPingBody = z.strictObject({
  at: At,
  ok: z.boolean(),
  source: z.string().max(1_000).optional(),
  userAgent: z.string().max(1_000).optional(),
});
export type HeartbeatPingBody = z.input<typeof HeartbeatPingBody>;

export const HeartbeatSettingsBody = z.strictObject({
  name: z.string().optional(),
  period: SeedDuration.nullable().optional(),
  grace: SeedDuration.optional(),
});
export type HeartbeatSettingsBody = z.input<typeof HeartbeatSettingsBody>;

export const ControlHealth = z.object({ ok: z.literal(true) });

export const RecordedResult = z.object({
  /** The error group the result joined, or `null` for a passing result. */
  errorGroupId: z.string().nullable(),
});
export type RecordedResult = z.infer<typeof RecordedResult>;

export const RecordedResults = z.object({
  recorded: z.int().min(0),
  results: z.array(RecordedResult),
});

export const GeneratedErrorGroups = z.object({ created: z.int().min(0) });

export const RecordedPing = z.object({ id: z.string() });

export const SeedLoaded = z.object({ loaded: z.literal(true) });

/** An update sent to every subscriber of the status page, as the emulator keeps it. */
export const Notification = z.object({
  incidentId: z.string(),
  updateId: z.string(),
  description: z.string(),
  status: IncidentStatus.nullable(),
  sentAt: z.string(),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationList = z.array(Notification);

/** The kinds of maintenance notification: a reminder, the automatic start and end, an update. */
export const MAINTENANCE_NOTICE_KINDS = ["reminder", "start", "end", "update"] as const;

/**
 * A maintenance notification sent to every subscriber: which window and maintenance, what
 * kind, the update and its message where there is one, and a reminder's minutes before.
 */
export const MaintenanceNotice = z.object({
  kind: z.enum(MAINTENANCE_NOTICE_KINDS),
  maintenanceWindowId: z.int(),
  maintenanceWindowName: z.string(),
  maintenanceId: z.string(),
  updateId: z.string().nullable(),
  message: z.string().nullable(),
  status: MaintenanceStatus.nullable(),
  minutesBefore: z.int().nullable(),
  sentAt: z.string(),
});
export type MaintenanceNotice = z.infer<typeof MaintenanceNotice>;

export const MaintenanceNoticeList = z.array(MaintenanceNotice);

/** `POST /_control/clock`: set the clock to an instant, or move it forward by some minutes. */
export const ClockMoveBody = z.union([
  z.strictObject({ at: SeedInstant }),
  z.strictObject({ advanceMinutes: z.int().min(0).max(5_256_000) }),
]);
export type ClockMoveBody = z.input<typeof ClockMoveBody>;

/** The emulator's clock: its now, and how far it stands from the real clock. */
export const ClockReading = z.object({ now: z.string(), offsetMs: z.number() });
