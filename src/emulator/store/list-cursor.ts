import type { DatabaseSync } from "node:sqlite";
import { statement } from "../database";
import { ErrorResponse } from "../http-error";

/*
 * The `nextId` of the emulator's lists: an opaque cursor naming the first item of the next
 * page by its creation time and id, so an item created or removed between two pages moves no
 * other across the page boundary.
 */

/** Where a page starts: the item with this creation time and id, and every one after it. */
export interface ListCursor {
  readonly createdMs: number;
  readonly id: string;
}

export function encodeCursor(createdMs: number, id: string): string {
  return Buffer.from(`${createdMs}:${id}`).toString("base64url");
}

/** The cursor of a `nextId`; one this emulator did not give is a 400 that says so. */
function decodeCursor(cursor: string): ListCursor {
  const text = Buffer.from(cursor, "base64url").toString();
  const at = text.indexOf(":");
  const createdMs = Number(text.slice(0, at));
  if (at < 1 || !Number.isSafeInteger(createdMs)) {
    throw new ErrorResponse(
      400,
      "nextId: not a cursor of this list; pass the nextId of the page before",
    );
  }
  return { createdMs, id: text.slice(at + 1) };
}

/**
 * One page of rows read with `limit + 1` (the extra row names the next page): the page's rows
 * and the `nextId` of the next one, `null` on the last.
 */
function pageOf<Row extends Readonly<Record<string, unknown>>>(
  rows: readonly Row[],
  limit: number,
): { rows: Row[]; nextId: string | null } {
  const next = rows[limit];
  return {
    rows: rows.slice(0, limit),
    nextId: next === undefined ? null : encodeCursor(Number(next.created_ms), String(next.id)),
  };
}

/** The rows a list reads: its table and columns, and whether the newest come first. */
export interface ListedRows {
  readonly table: "incidents" | "services" | "status_pages";
  readonly columns: string;
  readonly newestFirst: boolean;
}

/**
 * One page of an account's list from the cursor on, each row rendered, with the `nextId` of
 * the next page (`null` on the last), in creation order or, `newestFirst`, its reverse.
 */
export function listPage<T>(
  db: DatabaseSync,
  listed: ListedRows,
  accountId: string,
  page: { readonly limit: number; readonly cursor: string | undefined },
  render: (row: Record<string, unknown>) => T,
): { length: number; entries: T[]; nextId: string | null } {
  const from = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const [after, order] = listed.newestFirst ? ["<", "DESC"] : [">", "ASC"];
  const rows = statement(
    db,
    `SELECT ${listed.columns} FROM ${listed.table} WHERE account_id = ?
       AND (? IS NULL OR created_ms ${after} ? OR (created_ms = ? AND id ${after}= ?))
       ORDER BY created_ms ${order}, id ${order} LIMIT ?`,
  ).all(
    accountId,
    from === undefined ? null : 1,
    from?.createdMs ?? 0,
    from?.createdMs ?? 0,
    from?.id ?? "",
    page.limit + 1,
  );
  const paged = pageOf(rows, page.limit);
  const entries = paged.rows.map(render);
  return { length: entries.length, entries, nextId: paged.nextId };
}
