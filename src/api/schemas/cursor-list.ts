import { z } from "zod";

/*
 * The lists of the service's public reference that page with a cursor (incidents, services,
 * status pages): `?limit=&nextId=` in, `{ length, entries, nextId }` out.
 */

/** Most entries a page of a cursor list may hold (the public reference: 1 to 100, default 20). */
export const CURSOR_LIST_LIMIT_MAX = 100;

/** Query of a cursor list: `limit` 1 to 100 (server default 20), and the cursor of the page. */
export const CursorListQuery = z.strictObject({
  limit: z.int().min(1).max(CURSOR_LIST_LIMIT_MAX).optional(),
  nextId: z.string().min(1).optional(),
});
export type CursorListQuery = z.infer<typeof CursorListQuery>;

/**
 * A page as the client reads it: `{ length, entries, nextId }`, each entry read on its own, so
 * one entry the contract refuses degrades that entry only; `nextId` is `null` (or absent, or
 * empty) on the last page.
 */
export const CursorListPage = z.object({
  length: z.number().nullish(),
  entries: z.array(z.unknown()),
  nextId: z.string().nullish(),
});
export type CursorListPage = z.infer<typeof CursorListPage>;

/** A page of `entry` as the emulator answers it (the OpenAPI document's shape of a page). */
export function cursorList<T extends z.ZodType>(entry: T) {
  return z.object({ length: z.int(), entries: z.array(entry), nextId: z.string().nullable() });
}
