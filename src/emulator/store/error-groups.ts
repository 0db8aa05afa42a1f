import { createHash } from "node:crypto";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { ErrorGroup } from "../../api/schemas";
import type { RecordedResult } from "../control-schemas";
import { statement, transaction } from "../database";
import { cleanErrorMessage, errorHash } from "../error-cleaning";
import { notFound } from "../http-error";
import { toIso } from "../time";
import type { AccountStore } from "./accounts";

export interface NewCheckResult {
  atMs: number;
  /** The error of a failed result; `null` (or empty) records a passing result. */
  error: string | null;
}

export type { RecordedResult };

/**
 * Error group ids are derived from the account, check and hash, so the same seed gives
 * the same ids on every start and a group id never collides across accounts.
 */
function groupId(accountId: string, checkId: string, hash: string): string {
  const digest = createHash("sha256").update(`${accountId}\0${checkId}\0${hash}`).digest("hex");
  return `eg_${digest.slice(0, 24)}`;
}

/** Letters that are not hex digits, so generated words survive cleaning as they are. */
const WORD_LETTERS = "ghijklmnopqrstuvwxyz";

function syntheticWord(index: number): string {
  let word = "";
  let rest = index;
  do {
    word = WORD_LETTERS[rest % WORD_LETTERS.length] + word;
    rest = Math.floor(rest / WORD_LETTERS.length);
  } while (rest > 0);
  return word.padStart(4, "g");
}

/** Check results and the error groups their errors are deduplicated into. */
export class ErrorGroupStore {
  private readonly upsertGroup: StatementSync;
  private readonly insertResult: StatementSync;

  constructor(
    private readonly db: DatabaseSync,
    private readonly accounts: AccountStore,
  ) {
    // A result older than the group's lastSeen widens firstSeen but does not replace the
    // raw message, which is the one of the latest result. Any new result unarchives.
    this.upsertGroup = db.prepare(
      `INSERT INTO error_groups (id, account_id, check_id, error_hash, raw_error_message, cleaned_error_message, first_seen_ms, last_seen_ms, archived)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT (account_id, check_id, error_hash) DO UPDATE SET
         first_seen_ms = MIN(first_seen_ms, excluded.first_seen_ms),
         last_seen_ms = MAX(last_seen_ms, excluded.last_seen_ms),
         raw_error_message = CASE WHEN excluded.last_seen_ms >= last_seen_ms
           THEN excluded.raw_error_message ELSE raw_error_message END,
         archived = 0`,
    );
    this.insertResult = db.prepare(
      "INSERT INTO check_results (account_id, check_id, at_ms, error, error_group_id) VALUES (?, ?, ?, ?, ?)",
    );
  }

  /** Records one check result and groups its error. */
  record(accountId: string, checkId: string, result: NewCheckResult): RecordedResult {
    this.accounts.ensureCheck(accountId, checkId, "api");
    return this.recordKnownCheck(accountId, checkId, result);
  }

  /** Records many results in one transaction: all of them are stored or none. */
  recordMany(
    accountId: string,
    results: readonly (NewCheckResult & { checkId: string })[],
  ): RecordedResult[] {
    return transaction(this.db, () => {
      const ensured = new Set<string>();
      return results.map((result) => {
        if (!ensured.has(result.checkId)) {
          this.accounts.ensureCheck(accountId, result.checkId, "api");
          ensured.add(result.checkId);
        }
        return this.recordKnownCheck(accountId, result.checkId, result);
      });
    });
  }

  /**
   * Creates `count` distinct error groups for a check in one transaction, for load tests
   * and demos. Group `i` was last seen `i` seconds before `atMs`.
   */
  generate(accountId: string, checkId: string, count: number, atMs: number): number {
    const results = Array.from({ length: count }, (_, index) => ({
      checkId,
      atMs: atMs - index * 1_000,
      error: `Assertion failed in step ${syntheticWord(index)}: expected status 200 but got 500 (request ${index})`,
    }));
    this.recordMany(accountId, results);
    return count;
  }

  private recordKnownCheck(
    accountId: string,
    checkId: string,
    result: NewCheckResult,
  ): RecordedResult {
    const raw = result.error === null || result.error.trim() === "" ? null : result.error;
    let id: string | null = null;
    if (raw !== null) {
      const cleaned = cleanErrorMessage(raw);
      const hash = errorHash(cleaned);
      id = groupId(accountId, checkId, hash);
      this.upsertGroup.run(id, accountId, checkId, hash, raw, cleaned, result.atMs, result.atMs);
    }
    this.insertResult.run(accountId, checkId, result.atMs, raw, id);
    return { errorGroupId: id };
  }

  /** Spec 4.4: one page of a check's groups, `lastSeen` newest first, then id ascending. */
  list(accountId: string, checkId: string, limit: number, page: number): ErrorGroup[] {
    if (this.accounts.checkKind(accountId, checkId) === undefined) {
      throw notFound("check", checkId);
    }
    return statement(
      this.db,
      `SELECT * FROM error_groups WHERE account_id = ? AND check_id = ?
         ORDER BY last_seen_ms DESC, id ASC LIMIT ? OFFSET ?`,
    )
      .all(accountId, checkId, limit, (page - 1) * limit)
      .map(renderGroup);
  }

  get(accountId: string, id: string): ErrorGroup {
    const row = statement(
      this.db,
      "SELECT * FROM error_groups WHERE account_id = ? AND id = ?",
    ).get(accountId, id);
    if (row === undefined) throw notFound("error group", id);
    return renderGroup(row);
  }

  /** Archives a group until its next result, as a person would in the UI. */
  archive(accountId: string, id: string): ErrorGroup {
    const result = statement(
      this.db,
      "UPDATE error_groups SET archived = 1 WHERE account_id = ? AND id = ?",
    ).run(accountId, id);
    if (Number(result.changes) === 0) throw notFound("error group", id);
    return this.get(accountId, id);
  }
}

function renderGroup(row: Record<string, unknown>): ErrorGroup {
  return {
    id: String(row.id),
    checkId: String(row.check_id),
    errorHash: String(row.error_hash),
    rawErrorMessage: row.raw_error_message === null ? null : String(row.raw_error_message),
    cleanedErrorMessage: String(row.cleaned_error_message),
    firstSeen: toIso(Number(row.first_seen_ms)),
    lastSeen: toIso(Number(row.last_seen_ms)),
    archivedUntilNextEvent: Number(row.archived) === 1,
    rootCauseAnalyses: [],
  };
}
