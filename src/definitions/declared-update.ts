import { z } from "zod";
import { IncidentStatus, IncidentUpdateRequest } from "../api/schemas";
import { customerMessage, notBlank } from "./field-checks";

/*
 * An entry of `updates`, what customers read: its fields, and the rule between the entries'
 * dates.
 */

/**
 * The most entries `updates` may declare: the service lists an incident's 100 latest updates,
 * so an older one could not be found again to tell whether it was posted.
 */
export const MAX_DECLARED_UPDATES = 100;

/**
 * One entry of `updates`: what customers read on the status page, posted once, in order.
 * `notify: true` also sends it to every subscriber, which cannot be taken back; `at` backfills
 * the date customers see, and is never notified.
 */
export const DeclaredUpdateFields = z.strictObject({
  status: IncidentStatus.describe(
    "The status the incident moves to with this update: INVESTIGATING, IDENTIFIED, MONITORING or RESOLVED.",
  ),
  message: IncidentUpdateRequest.shape.description
    .check(notBlank)
    .check(customerMessage)
    .describe(
      "What customers read, as written (it may run over several lines). Posted once; an edit later changes it in place, and never notifies again.",
    ),
  notify: z
    .boolean()
    .default(false)
    .describe(
      "true sends this update to every subscriber of the status page when it is posted (e-mail and other channels); it cannot be taken back. Default false.",
    ),
  at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      "Backfills the date customers see (an RFC 3339 date-time such as 2026-11-26T09:40:00Z); left out, the update is dated when it is posted. A backfilled update notifies nobody.",
    ),
});
export const DeclaredUpdate = DeclaredUpdateFields.superRefine((entry, ctx) => {
  if (entry.notify && entry.at !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["notify"],
      message:
        'a backfilled entry (with "at") tells of the past, so it notifies nobody: remove "notify: true", or remove "at" to post it as news',
      params: { rule: "notify-refused" },
    });
  }
});
export type DeclaredUpdate = z.output<typeof DeclaredUpdate>;

/** Every allowed key of an entry of `updates`, for "did you mean" suggestions. */
export const DECLARED_UPDATE_KEYS: readonly string[] = Object.keys(DeclaredUpdateFields.shape);

/**
 * Backfilled dates tell what happened in order: each `at` is later than the one before, and
 * no backfilled entry follows one posted as news (which is dated when it was posted).
 */
export function checkDates(
  updates: readonly DeclaredUpdate[],
  issue: (path: PropertyKey[], rule: string, message: string) => void,
): void {
  let latest: { at: number; index: number } | undefined;
  let live: number | undefined;
  updates.forEach((entry, index) => {
    if (entry.at === undefined) {
      live ??= index;
      return;
    }
    const at = Date.parse(entry.at);
    if (live !== undefined) {
      issue(
        ["updates", index, "at"],
        "out-of-order",
        `a backfilled entry cannot follow updates[${live}], which is dated when it is posted: move it before, or remove its "at"`,
      );
    } else if (latest !== undefined && at <= latest.at) {
      issue(
        ["updates", index, "at"],
        "out-of-order",
        `${entry.at} is not after updates[${latest.index}].at; entries are oldest first`,
      );
    }
    latest = { at, index };
  });
}
