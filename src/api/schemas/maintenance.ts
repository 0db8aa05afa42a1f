import { z } from "zod";
import { ResponseDate } from "./dates";
import { Severity } from "./enums";
import { knownMember, ResponseSeverity, responseEnum } from "./known-status";

/*
 * Scheduled maintenance (service-contract.md, "Scheduled maintenance on the status page"): a
 * window is a template, each of its occurrences (a "maintenance") has its own status and
 * updates. Requests are strict; answers are read liberally, as the incident's are.
 */

/** A maintenance's status; an update moves it to one of these. */
export const MaintenanceStatus = z.enum([
  "SCHEDULED",
  "IN_PROGRESS",
  "VERIFYING",
  "COMPLETED",
  "CANCELLED",
]);
export type MaintenanceStatus = z.infer<typeof MaintenanceStatus>;

/** The unit of a recurring window's cycle. */
export const RepeatUnit = z.enum(["DAY", "WEEK", "MONTH"]);
export type RepeatUnit = z.infer<typeof RepeatUnit>;

export const MAINTENANCE_NAME_MAX = 200;
export const MAINTENANCE_UPDATE_MAX = 2000;
export const REPEAT_INTERVAL_MAX = 365;
export const REMINDERS_MAX = 3;
export const REMINDER_MINUTES_MIN = 60;
export const REMINDER_MINUTES_MAX = 10_080;
/** Windows per page of the list: 1 to 100, server default 10. */
export const MAINTENANCE_WINDOWS_LIMIT_MAX = 100;
/** Maintenances per page of a window's list: 1 to 50, server default 10. */
export const MAINTENANCES_LIMIT_MAX = 50;

/** The status `value` names, or `undefined` when it is absent or not one we know. */
export function knownMaintenanceStatus(
  value: string | null | undefined,
): MaintenanceStatus | undefined {
  return knownMember(MaintenanceStatus, value);
}

/** Whether `name` is an IANA time zone this runtime knows (`Europe/Paris`, `UTC`). */
export function isIanaTimeZone(name: string): boolean {
  // Node takes an offset such as `+05:00` for a zone too; the service refuses it.
  if (!IANA_ZONE.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const IANA_ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** An instant of a request: an RFC 3339 date-time with an offset or `Z`. */
export const RequestInstant = z.iso.datetime({ offset: true });

/** A calendar day of a request, `YYYY-MM-DD` (a window's `repeatEndsAt`). */
export const RequestDay = z.iso.date();

/** A time zone of a request: an IANA name; an offset such as `+05:00` is refused. */
export const TimeZoneName = z
  .string()
  .regex(IANA_ZONE, {
    message: "must be an IANA time zone name such as Europe/Paris, not an offset",
    abort: true,
  })
  .refine(isIanaTimeZone, "is not a time zone this runtime knows (an IANA name such as UTC)");

const REMINDER_RANGE = `a reminder is ${REMINDER_MINUTES_MIN} to ${REMINDER_MINUTES_MAX} minutes (1 hour to 7 days) before the start`;

/** Where and how a window appears on status pages; each field takes effect with `enabled`. */
export const StatusPageVisibilityRequest = z
  .strictObject({
    enabled: z.boolean().optional(),
    statusPageIds: z.array(z.string().min(1)).optional(),
    serviceIds: z.array(z.string().min(1)).optional(),
    affectAllServices: z.boolean().optional(),
    severity: Severity.optional(),
    notifyOnStart: z.boolean().optional(),
    notifyOnEnd: z.boolean().optional(),
    reminderMinutesBefore: z
      .array(
        z.int().min(REMINDER_MINUTES_MIN, REMINDER_RANGE).max(REMINDER_MINUTES_MAX, REMINDER_RANGE),
      )
      .max(REMINDERS_MAX, `at most ${REMINDERS_MAX} reminders`)
      .optional(),
    autoStart: z.boolean().optional(),
    autoEnd: z.boolean().optional(),
    showAffectedServices: z.boolean().optional(),
    suppressAutoIncidents: z.boolean().optional(),
  })
  .refine((value) => !(value.affectAllServices === true && (value.serviceIds?.length ?? 0) > 0), {
    message: "affectAllServices: true and a non-empty serviceIds exclude each other",
    path: ["affectAllServices"],
  });
export type StatusPageVisibilityRequest = z.infer<typeof StatusPageVisibilityRequest>;

/** The fields of a window's request, for schemas built on them (the emulator's seed). */
export const MAINTENANCE_WINDOW_FIELDS = {
  name: z.string().min(1).max(MAINTENANCE_NAME_MAX),
  startsAt: RequestInstant,
  endsAt: RequestInstant,
  repeatUnit: RepeatUnit.nullable(),
  repeatInterval: z.int().min(1).max(REPEAT_INTERVAL_MAX).optional(),
  repeatEndsAt: RequestDay.nullable().optional(),
  timezone: TimeZoneName.nullable().optional(),
  description: z.string().optional(),
  tags: z.array(z.string().min(1)).optional(),
  pauseAllChecks: z.boolean().optional(),
  silenceAllAlerts: z.boolean().optional(),
  silenceAlertsTags: z.array(z.string().min(1)).optional(),
  statusPageVisibility: StatusPageVisibilityRequest.optional(),
};

const endsAfterStart = (value: { startsAt?: string; endsAt?: string }) =>
  value.startsAt === undefined ||
  value.endsAt === undefined ||
  Date.parse(value.endsAt) > Date.parse(value.startsAt);
const END_AFTER_START = { message: "must be after startsAt", path: ["endsAt"] };

/** Body of `POST /v1/maintenance-windows` (not idempotent: the service picks a number id). */
export const MaintenanceWindowCreateRequest = z
  .strictObject(MAINTENANCE_WINDOW_FIELDS)
  .refine(endsAfterStart, END_AFTER_START);
export type MaintenanceWindowCreateRequest = z.infer<typeof MaintenanceWindowCreateRequest>;

/** Body of `PUT /v1/maintenance-windows/{id}`: partial, only the fields sent change. */
export const MaintenanceWindowChangeRequest = z
  .strictObject(MAINTENANCE_WINDOW_FIELDS)
  .partial()
  .refine(endsAfterStart, END_AFTER_START);
export type MaintenanceWindowChangeRequest = z.infer<typeof MaintenanceWindowChangeRequest>;

/** Body of `PATCH …/maintenances/{maintenanceId}`: moves that one occurrence. */
export const MaintenanceMoveRequest = z
  .strictObject({ startsAt: RequestInstant.optional(), endsAt: RequestInstant.optional() })
  .refine(endsAfterStart, END_AFTER_START);
export type MaintenanceMoveRequest = z.infer<typeof MaintenanceMoveRequest>;

/** Body of `POST …/maintenances/{maintenanceId}/updates`; `notifySubscribers` reaches everyone. */
export const MaintenanceUpdateRequest = z.strictObject({
  status: MaintenanceStatus,
  description: z.string().min(1).max(MAINTENANCE_UPDATE_MAX),
  notifySubscribers: z.boolean().optional(),
});
export type MaintenanceUpdateRequest = z.infer<typeof MaintenanceUpdateRequest>;

/** Body of `PUT …/updates/{updateId}`: the text, and the status (omitted keeps it). */
export const MaintenanceUpdateChangeRequest = z.strictObject({
  description: MaintenanceUpdateRequest.shape.description,
  status: MaintenanceStatus.optional(),
});
export type MaintenanceUpdateChangeRequest = z.infer<typeof MaintenanceUpdateChangeRequest>;

/** Query of the window list: offset pages, `limit` 1 to 100 (default 10), `page` from 1. */
export const MaintenanceWindowsQuery = z.strictObject({
  limit: z.int().min(1).max(MAINTENANCE_WINDOWS_LIMIT_MAX).optional(),
  page: z.int().min(1).optional(),
});
export type MaintenanceWindowsQuery = z.infer<typeof MaintenanceWindowsQuery>;

/** Query of a window's maintenances: `limit` 1 to 50 (default 10), `page` from 1. */
export const MaintenancesQuery = z.strictObject({
  limit: z.int().min(1).max(MAINTENANCES_LIMIT_MAX).optional(),
  page: z.int().min(1).optional(),
});
export type MaintenancesQuery = z.infer<typeof MaintenancesQuery>;

/** A maintenance status as a server sends it (`knownMaintenanceStatus` tells). */
export const ResponseMaintenanceStatus = responseEnum(MaintenanceStatus, "maintenance status");
/** A repeat unit as a server sends it; another value is kept as a string. */
export const ResponseRepeatUnit = responseEnum(RepeatUnit, "repeat unit");

/** How a window appears on status pages, as a server sends it: every field may be missing. */
export const StatusPageVisibility = z.object({
  enabled: z.boolean().nullish(),
  statusPageIds: z.array(z.string()).nullish(),
  serviceIds: z.array(z.string()).nullish(),
  affectAllServices: z.boolean().nullish(),
  severity: ResponseSeverity.nullish(),
  notifyOnStart: z.boolean().nullish(),
  notifyOnEnd: z.boolean().nullish(),
  reminderMinutesBefore: z.array(z.number()).nullish(),
  autoStart: z.boolean().nullish(),
  autoEnd: z.boolean().nullish(),
  showAffectedServices: z.boolean().nullish(),
  suppressAutoIncidents: z.boolean().nullish(),
});
export type StatusPageVisibility = z.infer<typeof StatusPageVisibility>;

/**
 * A window as a server sends it: `id` (a number), `name`, `startsAt` and `endsAt` are relied
 * on; every other field may be missing or `null`, and an enum may hold a value we do not know.
 */
export const MaintenanceWindow = z.object({
  id: z.int(),
  name: z.string(),
  startsAt: ResponseDate,
  endsAt: ResponseDate,
  description: z.string().nullish(),
  repeatUnit: ResponseRepeatUnit.nullish(),
  repeatInterval: z.number().nullish(),
  repeatEndsAt: ResponseDate.nullish(),
  timezone: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  pauseAllChecks: z.boolean().nullish(),
  silenceAllAlerts: z.boolean().nullish(),
  silenceAlertsTags: z.array(z.string()).nullish(),
  statusPageVisibility: StatusPageVisibility.nullish(),
  created_at: ResponseDate.nullish(),
  updated_at: ResponseDate.nullish(),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;

/** The window list as the emulator answers it: a plain array, no envelope and no cursor. */
export const MaintenanceWindowList = z.array(MaintenanceWindow);
export type MaintenanceWindowList = z.infer<typeof MaintenanceWindowList>;

/** An update of a maintenance as a server sends it: only `description` is relied on. */
export const MaintenanceUpdate = z.object({
  id: z.string().nullish(),
  maintenanceWindowId: z.number().nullish(),
  maintenanceId: z.string().nullish(),
  status: ResponseMaintenanceStatus.nullish(),
  description: z.string(),
  notifySubscribers: z.boolean().nullish().default(false),
  created_at: ResponseDate.nullish(),
  previousStatus: ResponseMaintenanceStatus.nullish(),
  previousStartsAt: ResponseDate.nullish(),
  previousEndsAt: ResponseDate.nullish(),
});
export type MaintenanceUpdate = z.infer<typeof MaintenanceUpdate>;

/**
 * One occurrence of a window (a "maintenance"): its own times, status and updates. `updates`
 * may be missing, and then nothing about them may be concluded from the answer.
 */
export const Maintenance = z.object({
  id: z.string(),
  maintenanceWindowId: z.number().nullish(),
  startsAt: ResponseDate,
  endsAt: ResponseDate,
  status: ResponseMaintenanceStatus.nullish(),
  updates: z.array(MaintenanceUpdate).optional(),
  created_at: ResponseDate.nullish(),
  updated_at: ResponseDate.nullish(),
});
export type Maintenance = z.infer<typeof Maintenance>;

/** A window's maintenances as the emulator answers them: a plain array. */
export const MaintenanceList = z.array(Maintenance);
export type MaintenanceList = z.infer<typeof MaintenanceList>;
