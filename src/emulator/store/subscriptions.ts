import type { DatabaseSync } from "node:sqlite";
import type { StatusPageSubscription } from "../../api/schemas";
import { statement } from "../database";
import { nameUuid } from "../name-uuid";
import { toIso } from "../time";

/*
 * A status page's subscribers, as a seed gives them (a count): each `subscriber-<n>@example.com`,
 * verified, by e-mail, its id derived from the page and its place so a seed gives stable ids.
 */

/** The page's subscriptions, oldest first; the caller has checked the page exists. */
export function listSubscriptions(
  db: DatabaseSync,
  accountId: string,
  statusPageId: string,
): StatusPageSubscription[] {
  return statement(
    db,
    "SELECT id, email, created_ms FROM status_page_subscriptions WHERE account_id = ? AND status_page_id = ? ORDER BY position",
  )
    .all(accountId, statusPageId)
    .map((row) => ({
      id: String(row.id),
      type: "EMAIL",
      email: String(row.email),
      status: "VERIFIED",
      created_at: toIso(Number(row.created_ms)),
    }));
}

/** Gives the page `count` subscribers in place of those it had (0 removes them all). */
export function setSubscribers(
  db: DatabaseSync,
  accountId: string,
  statusPageId: string,
  count: number,
  atMs: number,
): void {
  statement(
    db,
    "DELETE FROM status_page_subscriptions WHERE account_id = ? AND status_page_id = ?",
  ).run(accountId, statusPageId);
  const insert = statement(
    db,
    "INSERT INTO status_page_subscriptions (account_id, status_page_id, position, id, email, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (let n = 1; n <= count; n++) {
    const id = nameUuid(`${accountId}/status-page/${statusPageId}/subscription/${n}`);
    insert.run(accountId, statusPageId, n, id, `subscriber-${n}@example.com`, atMs);
  }
}
