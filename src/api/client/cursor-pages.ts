import { z } from "zod";
import { PagingError } from "../errors/paging-error";
import { CURSOR_LIST_LIMIT_MAX, type CursorListPage } from "../schemas";
import { answeredPage } from "./answered-page";
import { readEntries, type SkippedEntry } from "./read-entries";
import type { Target } from "./request-checks";

export type { SkippedEntry };

/*
 * The lists that page with a cursor (incidents, services, status pages): each entry of a page
 * read on its own, and every page walked by following `nextId` until it is `null`.
 */

/** One page of a cursor list. */
export interface CursorPage<T> {
  readonly entries: T[];
  /** Entries that were not what the contract describes. */
  readonly skipped: SkippedEntry[];
  /** The cursor of the next page; `null` on the last one. */
  readonly nextId: string | null;
}

/** The query of one page. */
export interface CursorQuery {
  limit?: number;
  nextId?: string;
}

/** Options of `services.pages` and `statusPages.pages`. */
export interface ListPagesOptions {
  /**
   * Entries per page, 1 to 100.
   * @default 100
   */
  pageSize?: number;
  /** Most pages to read; the walk then fails with a `PagingError`. @default the client's `maxPages` */
  maxPages?: number;
}

/** What `pages` takes, checked before anything is sent. */
export const ListPagesInput = z.strictObject({
  pageSize: z.int().min(1).max(CURSOR_LIST_LIMIT_MAX).default(CURSOR_LIST_LIMIT_MAX),
  maxPages: z.int().min(1).optional(),
});
/** The entries of a page, each read on its own: one the contract refuses is skipped, and said. */
export function readCursorPage<S extends z.ZodType>(
  page: CursorListPage,
  schema: S,
): CursorPage<z.output<S>> {
  // An empty cursor names no page: the last one, as `null` says.
  return { ...readEntries(page.entries, schema), nextId: page.nextId || null };
}

/**
 * Every page of a list, following `nextId` until it is `null`. A cursor that comes back again,
 * or more than `maxPages` pages, fails with a `PagingError` instead of looping.
 */
export async function* walkCursorPages<P extends { readonly nextId: string | null }>(walk: {
  readonly target: Target;
  readonly pageSize: number;
  readonly maxPages: number;
  readonly page: (query: { limit: number; nextId?: string }) => Promise<P>;
}): AsyncGenerator<P, void, undefined> {
  const cursors = new Set<string>();
  let nextId: string | undefined;
  for (let page = 1; ; page++) {
    const query = { limit: walk.pageSize, ...(nextId ? { nextId } : {}) };
    const answer = await walk.page(query);
    yield answer;
    if (!answer.nextId) return;
    const stuck = (why: string) =>
      new PagingError({
        ...answeredPage(walk.target, walk.target.path, {
          limit: String(query.limit),
          ...(query.nextId ? { nextId: query.nextId } : {}),
        }),
        why,
      });
    if (cursors.has(answer.nextId)) {
      throw stuck(
        `returned a nextId it had returned before (${JSON.stringify(answer.nextId)}): the listing goes round in circles`,
      );
    }
    if (page >= walk.maxPages) {
      throw stuck(`has more than ${walk.maxPages} pages of ${walk.pageSize} (maxPages)`);
    }
    cursors.add(answer.nextId);
    nextId = answer.nextId;
  }
}
