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
export function decodeCursor(cursor: string): ListCursor {
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
export function pageOf<Row extends Readonly<Record<string, unknown>>>(
  rows: readonly Row[],
  limit: number,
): { rows: Row[]; nextId: string | null } {
  const next = rows[limit];
  return {
    rows: rows.slice(0, limit),
    nextId: next === undefined ? null : encodeCursor(Number(next.created_ms), String(next.id)),
  };
}
