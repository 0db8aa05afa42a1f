import type { DatabaseSync } from "node:sqlite";
import type { Check } from "../../api/schemas";
import { statement } from "../database";
import { notFound } from "../http-error";

/** The checks list's default page size (the reference's). */
export const CHECKS_PAGE_DEFAULT = 10;

/** The filters of the checks list; each one given narrows it. */
export interface ChecksFilter {
  checkType?: string | undefined;
  tag?: string | undefined;
  search?: string | undefined;
}

const CHECK_TYPE = { api: "API", heartbeat: "HEARTBEAT" } as const;

/**
 * The account's checks as `GET /v1/checks` lists them: every check the seed, a ping or a
 * recorded result made, ordered by id, with its name when it has one. The emulator keeps no
 * tags, so a `tag` filter matches none.
 */
export class CheckStore {
  constructor(private readonly db: DatabaseSync) {}

  list(accountId: string, limit: number, page: number, filter: ChecksFilter = {}): Check[] {
    if (filter.tag !== undefined) return [];
    const search = filter.search === undefined ? null : `%${escapeLike(filter.search)}%`;
    const kind =
      filter.checkType === undefined
        ? null
        : (Object.entries(CHECK_TYPE).find(([, type]) => type === filter.checkType)?.[0] ?? "");
    return statement(
      this.db,
      `SELECT id, kind, name FROM checks
         WHERE account_id = ?
           AND (? IS NULL OR kind = ?)
           AND (? IS NULL OR name LIKE ? ESCAPE '\\')
         ORDER BY id LIMIT ? OFFSET ?`,
    )
      .all(accountId, kind, kind, search, search, limit, (page - 1) * limit)
      .map(checkOf);
  }

  get(accountId: string, checkId: string): Check {
    const row = statement(
      this.db,
      "SELECT id, kind, name FROM checks WHERE account_id = ? AND id = ?",
    ).get(accountId, checkId);
    if (row === undefined) throw notFound("check", checkId);
    return checkOf(row);
  }
}

function checkOf(row: Record<string, unknown>): Check {
  const kind = String(row.kind) as keyof typeof CHECK_TYPE;
  return {
    id: String(row.id),
    ...(row.name == null ? {} : { name: String(row.name) }),
    checkType: CHECK_TYPE[kind] ?? String(row.kind).toUpperCase(),
    activated: true,
    tags: [],
  };
}

/** `LIKE` reads `%` and `_` as wildcards; a search for them is for the characters. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
