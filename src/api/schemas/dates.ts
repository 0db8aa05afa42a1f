import { z } from "zod";

/**
 * The spec declares "date format" for timestamps such as `created_at`, yet they are
 * instants. Requests accept an RFC 3339 date-time (with offset) or a plain date;
 * the emulator always answers with a full UTC date-time.
 */
export const DateOrDateTime = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/**
 * Timestamps in responses are required strings but their format is not checked: a
 * server that writes `2026-11-01 10:00:00` must not make every read fail.
 */
export const ResponseDate = z.string();
