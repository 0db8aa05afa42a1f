/*
 * The names of the emulator's behaviours, without zod: the CLI's `--put-status` and
 * `--reference-operations` flags read them at start-up, before any command is loaded
 * (behaviour.ts holds the rules and their schemas).
 */

/** What a PUT does with `lastUpdateStatus`: post a status-change update, or only set the field. */
export const PUT_STATUSES = ["posts-update", "sets-field"] as const;

/** Picks the PUT behaviour of every emulator started without an explicit choice (tests, npm start). */
export const PUT_STATUS_ENV = "INCIDENT_SYNC_EMULATOR_PUT_STATUS";

/** Whether the incident operations beyond the spec's excerpt exist, or are answered 404 or 405. */
export const REFERENCE_OPERATIONS = ["available", "not-found", "method-not-allowed"] as const;
