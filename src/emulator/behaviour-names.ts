/*
 * The names of the emulator's behaviours, without zod: the CLI's `--put-status`, `--list-order`,
 * `--rate-window`, `--unknown-check`, `--account-header`, `--answers`, `--create-answer`,
 * `--create-delay`, `--edit-date` and `--reference-operations` flags read them at start-up, before any command is loaded
 * (behaviour.ts holds the rules and their schemas).
 */

/** What a PUT does with `lastUpdateStatus`: post a status-change update, only set the field, or ignore it. */
export const PUT_STATUSES = ["posts-update", "sets-field", "ignores"] as const;

/** Picks the PUT behaviour of every emulator started without an explicit choice (tests, npm start). */
export const PUT_STATUS_ENV = "INCIDENT_SYNC_EMULATOR_PUT_STATUS";

/**
 * Picks any behaviour of every emulator started without an explicit choice, as the JSON of
 * `PATCH /_control/behaviour` (`{"listOrder":"oldest-first","answers":"lean"}`).
 */
export const BEHAVIOUR_ENV = "INCIDENT_SYNC_EMULATOR_BEHAVIOUR";

/** Whether the incident operations beyond the spec's excerpt exist, or are answered 404 or 405. */
export const REFERENCE_OPERATIONS = ["available", "not-found", "method-not-allowed"] as const;

/** The order heartbeat events and incident updates are listed in, and which `limit` keeps. */
export const LIST_ORDERS = ["newest-first", "oldest-first"] as const;

/** What the two check reads answer for a check the account does not have: 404, or `[]`. */
export const UNKNOWN_CHECKS = ["not-found", "empty"] as const;

/** Whether a request without `x-service-account` is served (an account key) or refused (a personal key). */
export const ACCOUNT_HEADERS = ["optional", "required"] as const;

/** Answers with every field the emulator knows, or only those the service's contract requires. */
export const ANSWERS = ["full", "lean"] as const;

/**
 * What a create answers: the incident as made, or without the ids of its updates, or without
 * its updates (`incidentUpdates: []`), as a service may that adds them after answering.
 */
export const CREATE_ANSWERS = ["full", "without-update-ids", "without-updates"] as const;

/**
 * What an update PUT without `publicIncidentUpdateDate` does to the update's public date:
 * keeps it, or sets it to now, as the reference's regenerated default for the field suggests.
 */
export const EDIT_DATES = ["kept", "now"] as const;

/** How the service refuses a duplicate (a page `url` taken, a service name with `unique`): 400 or 409. */
export const DUPLICATE_ANSWERS = ["bad-request", "conflict"] as const;

/** Whether two services of an account may share a name, or a create or rename taking one is refused. */
export const SERVICE_NAMES = ["repeatable", "unique"] as const;

/** What removing a service that incidents or cards still name does: removes it, or is refused (409). */
export const SERVICES_IN_USE = ["removed", "refused"] as const;

/** The longest a create may be held before it is carried out, in ms (`--create-delay`). */
export const CREATE_DELAY_MAX_MS = 120_000;

/** `--rate-window 600/60s`: at most N requests per S seconds, per API key. */
export const RATE_WINDOW_PATTERN = /^(\d{1,6})\/(\d{1,5})s$/;

/**
 * Which maintenances a recurring window has: the ones begun and the next (each following one
 * made when one begins), or every one up to its end at once.
 */
export const MAINTENANCE_OCCURRENCES = ["next", "all"] as const;
