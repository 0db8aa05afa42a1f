import { DateTime } from "luxon";
import { z } from "zod";
import {
  ianaZones,
  occurrenceOn,
  occurrencesOf,
  type WindowTimes,
} from "../api/maintenance-recurrence";
import {
  isIanaTimeZone,
  MAINTENANCE_NAME_MAX,
  MAINTENANCE_UPDATE_MAX,
  MaintenanceStatus,
  REMINDER_MINUTES_MAX,
  REMINDER_MINUTES_MIN,
  REMINDERS_MAX,
  REPEAT_INTERVAL_MAX,
  RepeatUnit,
  RequestDay,
  RequestInstant,
  Severity,
} from "../api/schemas";
import { closestMatch } from "../suggest";
import { DeclaredUpdateFields } from "./declared-update";
import {
  always,
  customerMessage,
  noRepeats,
  notBlank,
  readableText,
  visibleId,
  visibleName,
} from "./field-checks";
import { StackName } from "./references";

/*
 * A scheduled maintenance as people write it in YAML (`kind: maintenance`): the window, what
 * the status page shows of it, who is told and when, and the updates posted to its
 * occurrences (../shared/service-contract.md, "Scheduled maintenance on the status page").
 */

/**
 * A time as the service takes it (the API's `RequestInstant`: ISO 8601 with an offset or `Z`),
 * with words for what people get wrong: a time without an offset, or one that is no real time.
 */
const WindowTime = (what: string) =>
  z
    .string()
    .check((payload) => {
      const text = payload.value;
      if (RequestInstant.safeParse(text).success && DateTime.fromISO(text).isValid) return;
      const withoutOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
      payload.issues.push({
        code: "custom",
        input: text,
        params: { rule: "invalid-time" },
        message: withoutOffset
          ? `${what} "${text}" has no offset, so it is not one moment: add "Z" for UTC or an offset such as +01:00 (the window's timezone says how recurrences repeat, not how this time is read)`
          : `${what} "${text}" is not an ISO 8601 time with an offset, such as 2026-12-04T02:00:00Z`,
      });
    })
    .meta({ format: "date-time" })
    .describe(`${what}: an ISO 8601 time with an offset or Z, such as 2026-12-04T02:00:00Z.`);

/** A calendar day, `YYYY-MM-DD`, as the API's `RequestDay` takes it. */
const CalendarDate = z
  .string()
  .check((payload) => {
    if (RequestDay.safeParse(payload.value).success) return;
    payload.issues.push({
      code: "custom",
      input: payload.value,
      params: { rule: "invalid-time" },
      message: `"${payload.value}" is not a calendar day such as 2026-12-04`,
    });
  })
  .meta({ format: "date" });

/** An IANA timezone name; an offset is refused, with a suggestion for a misspelt name. */
const Timezone = z
  .string()
  .check((payload) => {
    const name = payload.value;
    if (isIanaTimeZone(name)) return;
    const offset = /^(UTC|GMT)?[+-]\d{1,2}(:?\d{2})?$/i.test(name);
    const suggestion = offset ? undefined : closestMatch(name, ianaZones());
    payload.issues.push({
      code: "custom",
      input: name,
      params: { rule: "invalid-timezone" },
      message: offset
        ? `timezone "${name}" is an offset, which the service refuses: use an IANA name such as Europe/Berlin or UTC, so a recurring window keeps its local time across daylight-saving changes`
        : `timezone "${name}" is not an IANA timezone${suggestion ? ` (did you mean ${suggestion}?)` : "; use a name such as Europe/Berlin or UTC"}`,
    });
  })
  .describe(
    "The IANA timezone the window repeats in, such as Europe/Berlin (not an offset). Left out, UTC.",
  );

export const Repeat = z
  .strictObject({
    unit: RepeatUnit.describe("DAY, WEEK or MONTH."),
    every: z
      .int()
      .min(1)
      .max(REPEAT_INTERVAL_MAX)
      .default(1)
      .describe(`Every how many units, 1 to ${REPEAT_INTERVAL_MAX}. Default 1.`),
    until: CalendarDate.optional().describe(
      "The last day an occurrence may start (YYYY-MM-DD, in the window's timezone). Left out, it repeats with no end.",
    ),
  })
  .describe("How the window repeats. Left out, it runs once.");

export const MaintenanceNotify = z
  .strictObject({
    onStart: z
      .boolean()
      .default(false)
      .describe(
        "true e-mails every subscriber when an occurrence starts on its own. Default false.",
      ),
    onEnd: z
      .boolean()
      .default(false)
      .describe("true e-mails every subscriber when an occurrence ends on its own. Default false."),
    remindBefore: z
      .array(z.int().min(REMINDER_MINUTES_MIN).max(REMINDER_MINUTES_MAX))
      .max(REMINDERS_MAX)
      .superRefine(noRepeats("reminder"), { when: always })
      .default([])
      .describe(
        `Reminders e-mailed to every subscriber before each occurrence, in minutes before its start: at most ${REMINDERS_MAX}, each ${REMINDER_MINUTES_MIN} to ${REMINDER_MINUTES_MAX} (a week).`,
      ),
  })
  .describe(
    "Who is e-mailed, and when. Every notification reaches every subscriber and cannot be taken back.",
  );

export const MaintenanceChecks = z
  .strictObject({
    tags: z
      .array(z.string().min(1).check(visibleId))
      .superRefine(noRepeats("tag"), { when: always })
      .optional()
      .describe("The tags of the checks and groups the window applies to."),
    pause: z.boolean().optional().describe("true pauses every check while the window runs."),
    silence: z
      .union([z.literal(true), z.array(z.string().min(1).check(visibleId))])
      .optional()
      .describe("true silences every alert while the window runs; a list of tags silences theirs."),
  })
  .describe("What the window does to checks and alerts while it runs.");

/** An entry of a maintenance's `updates`: posted once, to the occurrence it names. */
export const MaintenanceUpdate = z.strictObject({
  status: MaintenanceStatus.describe(
    "The status the occurrence moves to: SCHEDULED, IN_PROGRESS, VERIFYING, COMPLETED or CANCELLED.",
  ),
  message: DeclaredUpdateFields.shape.message.max(MAINTENANCE_UPDATE_MAX),
  notify: DeclaredUpdateFields.shape.notify,
  occurrence: CalendarDate.optional().describe(
    "The occurrence it is posted to, by the day it starts (YYYY-MM-DD in the window's timezone). Required for a recurring window; a one-off window's only occurrence by default.",
  ),
});
export type MaintenanceUpdate = z.output<typeof MaintenanceUpdate>;

export const MaintenanceDefinitionFields = z.strictObject({
  kind: z.literal("maintenance").describe("A scheduled maintenance, not an incident."),
  resource: z
    .string()
    .min(1)
    .check(visibleId)
    .describe("The Pulumi resource name, unique across all definitions. Keep it stable."),
  id: z
    .int()
    .positive()
    .optional()
    .describe(
      "The number of a window that exists on the service, which `up` adopts. Left out, the first `up` creates the window.",
    ),
  name: z
    .string()
    .min(1)
    .max(MAINTENANCE_NAME_MAX)
    .check(notBlank)
    .check(visibleName)
    .describe(`The window's title on the status page, at most ${MAINTENANCE_NAME_MAX} characters.`),
  description: z
    .string()
    .min(1)
    .check(notBlank)
    .check(customerMessage)
    .optional()
    .describe("What the status page shows of the window, as written."),
  startsAt: WindowTime("startsAt"),
  endsAt: WindowTime("endsAt"),
  timezone: Timezone.optional(),
  repeat: Repeat.optional(),
  statusPages: z
    .array(z.string().min(1).check(visibleId))
    .min(1)
    .superRefine(noRepeats("status page"), { when: always })
    .optional()
    .describe(
      "The status pages the window appears on. Left out, it appears on none and tells nobody.",
    ),
  services: z
    .array(z.string().min(1).check(visibleId))
    .min(1)
    .superRefine(noRepeats("service"), { when: always })
    .optional()
    .describe("The services under maintenance, each a service of the named pages."),
  allServices: z
    .literal(true)
    .optional()
    .describe(
      "Every service of the named pages, those added later included (instead of services).",
    ),
  showServices: z
    .boolean()
    .default(true)
    .describe("false names no services on the page or in notifications. Default true."),
  severity: Severity.optional().describe(
    "How much the window affects: CRITICAL, MAJOR, MEDIUM or MINOR.",
  ),
  notify: MaintenanceNotify.optional(),
  autoStart: z
    .boolean()
    .default(true)
    .describe("true starts each occurrence at its time; false waits for an update. Default true."),
  autoEnd: z
    .boolean()
    .default(true)
    .describe(
      "true completes each occurrence at its end; false waits for an update. Default true.",
    ),
  checks: MaintenanceChecks.optional(),
  updates: z
    .array(MaintenanceUpdate)
    .optional()
    .describe(
      "What customers read, oldest first: each entry is posted once to its occurrence; an edit changes it in place.",
    ),
  stacks: z
    .array(StackName)
    .min(1)
    .superRefine(noRepeats("stack"), { when: always })
    .optional()
    .describe("The Pulumi stacks that manage this window. Left out, every stack does."),
  reason: z
    .string()
    .min(1)
    .check(readableText)
    .optional()
    .describe(
      "Why this change is made, for the pull request's reviewers; never sent to the service.",
    ),
});

/** Every allowed key of a maintenance and of its parts, for "did you mean" suggestions. */
export const MAINTENANCE_KEYS = {
  top: Object.keys(MaintenanceDefinitionFields.shape),
  notify: Object.keys(MaintenanceNotify.shape),
  checks: Object.keys(MaintenanceChecks.shape),
  repeat: Object.keys(Repeat.shape),
  updates: Object.keys(MaintenanceUpdate.shape),
} as const;

type Fields = z.output<typeof MaintenanceDefinitionFields>;

/** The rules between a window's fields, each an issue at the field to change. */
function checkWindow(window: Fields, ctx: z.RefinementCtx): void {
  const issue = (path: PropertyKey[], rule: string, message: string) =>
    ctx.addIssue({ code: "custom", path, message, params: { rule }, input: window });
  if (Date.parse(window.endsAt) <= Date.parse(window.startsAt)) {
    issue(
      ["endsAt"],
      "end-before-start",
      `endsAt ${window.endsAt} is not after startsAt ${window.startsAt}`,
    );
  }
  if (window.services !== undefined && window.allServices === true) {
    issue(
      ["allServices"],
      "services-and-all",
      'a window affects either the services listed or "allServices": remove one of them',
    );
  }
  if (window.statusPages === undefined) {
    const shown = ["services", "allServices", "severity", "notify", "updates"].filter(
      (key) => window[key as keyof Fields] !== undefined,
    );
    for (const key of shown) {
      issue(
        [key],
        "needs-status-pages",
        `${key} is what a status page shows or tells, and the window is on none: add "statusPages", or remove "${key}"`,
      );
    }
  }
  const times: WindowTimes = window;
  if (window.repeat?.until !== undefined) {
    const first = occurrencesOf(times, { limit: 1 })[0];
    if (first !== undefined && window.repeat.until < first.date) {
      issue(
        ["repeat", "until"],
        "until-before-start",
        `repeat.until ${window.repeat.until} is before the first occurrence, on ${first.date}`,
      );
    }
  }
  window.updates?.forEach((entry, index) => {
    if (entry.occurrence === undefined) {
      if (window.repeat !== undefined) {
        issue(
          ["updates", index],
          "missing-occurrence",
          `updates[${index}] needs "occurrence": a recurring window has one maintenance per run, so say which, by the day it starts (YYYY-MM-DD)`,
        );
      }
    } else if (occurrenceOn(times, entry.occurrence) === undefined) {
      const next = occurrencesOf(times, { limit: 3 }).map((occurrence) => occurrence.date);
      issue(
        ["updates", index, "occurrence"],
        "unknown-occurrence",
        `the window has no occurrence on ${entry.occurrence}; its first ${next.length === 1 ? "and only is" : "are"} ${next.join(", ")}`,
      );
    }
  });
}

/** Runs the rules between fields only when the fields they read passed their own checks. */
function timesWellTyped(payload: z.core.ParsePayload): boolean {
  const read = new Set([
    "startsAt",
    "endsAt",
    "timezone",
    "repeat",
    "updates",
    "services",
    "allServices",
  ]);
  return !payload.issues.some((issue) => read.has(String(issue.path?.[0])));
}

/** A validated maintenance window. */
export const MaintenanceDefinition = MaintenanceDefinitionFields.superRefine(checkWindow, {
  when: timesWellTyped,
}).meta({
  title: "incident-sync maintenance definition",
  description:
    "One scheduled maintenance window managed by incident-sync (kind: maintenance): its times, what the status page shows, who is told and when.",
});
export type MaintenanceDefinition = z.output<typeof MaintenanceDefinition>;
