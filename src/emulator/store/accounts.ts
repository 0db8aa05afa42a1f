import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { statement } from "../database";
import { ErrorResponse } from "../http-error";

/** Keys are stored as SHA-256 digests, so a copied data file does not hand out API keys. */
export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex");
}

export type CheckKind = "api" | "heartbeat";

export interface HeartbeatSettings {
  /** Expected time between pings; without it a heartbeat is never GRACE, LATE or EARLY. */
  periodMs: number | null;
  /** Extra time after the period before the heartbeat counts as missed. */
  graceMs: number;
}

/** Accounts, their API keys and checks. */
export class AccountStore {
  constructor(private readonly db: DatabaseSync) {}

  ensureAccount(accountId: string, nowMs: number): void {
    statement(
      this.db,
      "INSERT INTO accounts (id, created_ms) VALUES (?, ?) ON CONFLICT DO NOTHING",
    ).run(accountId, nowMs);
  }

  accountExists(accountId: string): boolean {
    return statement(this.db, "SELECT 1 FROM accounts WHERE id = ?").get(accountId) !== undefined;
  }

  /** Adds a key to an account. A key already owned by another account is refused. */
  addApiKey(accountId: string, apiKey: string): void {
    const keyHash = hashApiKey(apiKey);
    const owner = this.accountForKeyHash(keyHash);
    if (owner !== undefined && owner !== accountId) {
      throw new ErrorResponse(
        409,
        `an API key of account ${accountId} already belongs to ${owner}`,
      );
    }
    statement(
      this.db,
      "INSERT INTO api_keys (key_hash, account_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
    ).run(keyHash, accountId);
  }

  accountForKey(apiKey: string): string | undefined {
    return this.accountForKeyHash(hashApiKey(apiKey));
  }

  private accountForKeyHash(keyHash: string): string | undefined {
    const row = statement(this.db, "SELECT account_id FROM api_keys WHERE key_hash = ?").get(
      keyHash,
    );
    return row === undefined ? undefined : String(row.account_id);
  }

  checkKind(accountId: string, checkId: string): CheckKind | undefined {
    const row = statement(this.db, "SELECT kind FROM checks WHERE account_id = ? AND id = ?").get(
      accountId,
      checkId,
    );
    return row === undefined ? undefined : (String(row.kind) as CheckKind);
  }

  /**
   * Registers a check on first use. A check keeps its kind: pings go to heartbeat checks
   * only, so recording a ping on an API check is a conflict.
   */
  ensureCheck(accountId: string, checkId: string, kind: CheckKind, name?: string): void {
    const existing = this.checkKind(accountId, checkId);
    if (existing === undefined) {
      statement(this.db, "INSERT INTO checks (account_id, id, kind, name) VALUES (?, ?, ?, ?)").run(
        accountId,
        checkId,
        kind,
        name ?? null,
      );
      return;
    }
    if (kind === "heartbeat" && existing !== "heartbeat") {
      throw new ErrorResponse(
        409,
        `check ${checkId} of account ${accountId} is an API check, not a heartbeat: record pings on a heartbeat check`,
      );
    }
    if (name !== undefined) {
      statement(this.db, "UPDATE checks SET name = ? WHERE account_id = ? AND id = ?").run(
        name,
        accountId,
        checkId,
      );
    }
  }

  setHeartbeatSettings(accountId: string, checkId: string, settings: HeartbeatSettings): void {
    statement(
      this.db,
      "UPDATE checks SET period_ms = ?, grace_ms = ? WHERE account_id = ? AND id = ?",
    ).run(settings.periodMs, settings.graceMs, accountId, checkId);
  }

  heartbeatSettings(accountId: string, checkId: string): HeartbeatSettings {
    const row = statement(
      this.db,
      "SELECT period_ms, grace_ms FROM checks WHERE account_id = ? AND id = ?",
    ).get(accountId, checkId);
    return {
      periodMs: row?.period_ms == null ? null : Number(row.period_ms),
      graceMs: row === undefined ? 0 : Number(row.grace_ms),
    };
  }
}
