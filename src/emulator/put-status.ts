/*
 * The names of the emulator's PUT behaviours, without zod: the CLI's `--put-status` flag reads
 * them at start-up, before any command is loaded (behaviour.ts holds the rule and its schema).
 */

/** What a PUT does with `lastUpdateStatus`: post a status-change update, or only set the field. */
export const PUT_STATUSES = ["posts-update", "sets-field"] as const;

/** Picks the PUT behaviour of every emulator started without an explicit choice (tests, npm start). */
export const PUT_STATUS_ENV = "INCIDENT_SYNC_EMULATOR_PUT_STATUS";
