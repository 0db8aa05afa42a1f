import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { UserError } from "../user-error";

/** Bumped when the schema changes; a data file from another version is refused. */
export const SCHEMA_VERSION = 4;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (
  key_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id)
);
CREATE TABLE IF NOT EXISTS services (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE IF NOT EXISTS status_pages (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  custom_domain TEXT,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE IF NOT EXISTS status_page_cards (
  account_id TEXT NOT NULL,
  status_page_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (account_id, status_page_id, position)
);
CREATE TABLE IF NOT EXISTS status_page_card_services (
  account_id TEXT NOT NULL,
  card_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  service_id TEXT NOT NULL,
  PRIMARY KEY (account_id, card_id, position)
);
CREATE TABLE IF NOT EXISTS status_page_looks (
  account_id TEXT NOT NULL,
  status_page_id TEXT NOT NULL,
  look TEXT NOT NULL,
  PRIMARY KEY (account_id, status_page_id)
);
CREATE TABLE IF NOT EXISTS status_page_subscriptions (
  account_id TEXT NOT NULL,
  status_page_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  id TEXT NOT NULL,
  email TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, status_page_id, position)
);
CREATE INDEX IF NOT EXISTS status_pages_by_url ON status_pages (url);
CREATE TABLE IF NOT EXISTS incidents (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  severity TEXT NOT NULL,
  last_update_status TEXT NOT NULL,
  duration INTEGER,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE IF NOT EXISTS incident_services (
  account_id TEXT NOT NULL,
  incident_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  service_id TEXT NOT NULL,
  PRIMARY KEY (account_id, incident_id, position)
);
CREATE TABLE IF NOT EXISTS incident_updates (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  incident_id TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT,
  notify_subscribers INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  public_ms INTEGER
);
CREATE INDEX IF NOT EXISTS incident_updates_by_incident
  ON incident_updates (account_id, incident_id, created_ms DESC, seq DESC);
CREATE TABLE IF NOT EXISTS notifications (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  incident_id TEXT NOT NULL,
  update_id TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT,
  sent_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS maintenance_windows (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  window_json TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS maintenances (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  window_id INTEGER NOT NULL,
  starts_ms INTEGER NOT NULL,
  ends_ms INTEGER NOT NULL,
  status TEXT NOT NULL,
  armed_ms INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS maintenances_by_window ON maintenances (account_id, window_id, starts_ms);
CREATE INDEX IF NOT EXISTS maintenances_running ON maintenances (status, starts_ms);
CREATE TABLE IF NOT EXISTS maintenance_updates (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  maintenance_id TEXT NOT NULL,
  status TEXT NOT NULL,
  description TEXT NOT NULL,
  notify_subscribers INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  previous_status TEXT,
  previous_starts_ms INTEGER,
  previous_ends_ms INTEGER
);
CREATE INDEX IF NOT EXISTS maintenance_updates_by_maintenance
  ON maintenance_updates (maintenance_id, created_ms, seq);
CREATE TABLE IF NOT EXISTS maintenance_events (
  maintenance_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  PRIMARY KEY (maintenance_id, kind)
);
CREATE TABLE IF NOT EXISTS maintenance_notifications (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  window_id INTEGER NOT NULL,
  window_name TEXT NOT NULL,
  maintenance_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  update_id TEXT,
  message TEXT,
  status TEXT,
  minutes_before INTEGER,
  sent_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS checks (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT,
  period_ms INTEGER,
  grace_ms INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE IF NOT EXISTS heartbeat_pings (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  check_id TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  ok INTEGER NOT NULL,
  source TEXT NOT NULL,
  user_agent TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS heartbeat_pings_by_check
  ON heartbeat_pings (account_id, check_id, at_ms, seq);
CREATE TABLE IF NOT EXISTS error_groups (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  check_id TEXT NOT NULL,
  error_hash TEXT NOT NULL,
  raw_error_message TEXT,
  cleaned_error_message TEXT NOT NULL,
  first_seen_ms INTEGER NOT NULL,
  last_seen_ms INTEGER NOT NULL,
  archived INTEGER NOT NULL DEFAULT 0,
  UNIQUE (account_id, check_id, error_hash)
);
CREATE INDEX IF NOT EXISTS error_groups_by_check
  ON error_groups (account_id, check_id, last_seen_ms DESC, id ASC);
CREATE TABLE IF NOT EXISTS check_results (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  check_id TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  error TEXT,
  error_group_id TEXT
);
`;

/**
 * How a data file of an earlier schema version becomes this one, by its version: the
 * schema's `CREATE … IF NOT EXISTS` has added any new table already.
 */
const MIGRATIONS: Readonly<Record<string, string>> = {
  // Version 2: an update's backfilled public date.
  "1": "ALTER TABLE incident_updates ADD COLUMN public_ms INTEGER",
  // Version 3: the status pages, whose tables the schema has added.
  "2": "",
  // Version 4: the maintenance windows, whose tables the schema has added.
  "3": "",
};

export type Row = Record<string, SQLInputValue>;

/** The data file was written by another schema version. */
export class DataFileVersionError extends UserError {
  override name = "DataFileVersionError";
}

/**
 * Opens the emulator database. With a path the data survives restarts: WAL journal and
 * `synchronous=FULL`, so a write is on disk before its HTTP response is sent and a
 * `kill -9` loses nothing acknowledged. Without a path the database lives in memory.
 */
export function openDatabase(path: string | undefined): DatabaseSync {
  const db = new DatabaseSync(path ?? ":memory:");
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    if (path !== undefined) {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = FULL");
    }
    db.exec("PRAGMA foreign_keys = ON");
    db.exec(SCHEMA);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
    if (row === undefined) {
      db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(
        String(SCHEMA_VERSION),
      );
    } else if (Object.hasOwn(MIGRATIONS, String(row.value))) {
      transaction(db, () => {
        db.exec(MIGRATIONS[String(row.value)] ?? "");
        db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(
          String(SCHEMA_VERSION),
        );
      });
    } else if (row.value !== String(SCHEMA_VERSION)) {
      throw new DataFileVersionError(
        `${path} holds emulator data of schema version ${String(row.value)}, this emulator uses version ${SCHEMA_VERSION}: start with another --data file or delete this one.`,
      );
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

let savepoints = 0;

/**
 * Runs `work` in one IMMEDIATE transaction: all of it is written, or none of it. Inside
 * another transaction it runs in a savepoint, so stores can nest their transactions.
 */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) {
    const name = `sp_${++savepoints}`;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const result = work();
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
      throw error;
    }
  }
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

const statements = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** A prepared statement, prepared once per connection: preparing costs more than running. */
export function statement(db: DatabaseSync, sql: string): StatementSync {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (prepared === undefined) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}
