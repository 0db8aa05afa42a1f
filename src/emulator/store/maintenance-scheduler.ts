import type { DatabaseSync } from "node:sqlite";
import {
  type MaintenanceStatus,
  type MaintenanceUpdate,
  REMINDER_MINUTES_MAX,
} from "../../api/schemas";
import type { MaintenanceOccurrences } from "../behaviour";
import { statement, transaction } from "../database";
import type { StoredWindow } from "./maintenance-rows";

/*
 * The service's scheduler of maintenance: each reminder, automatic start and automatic end,
 * done once (`maintenance_events` keeps what was done), in the order of their times.
 */

/** What the emulator posts at an automatic start and completion (the service's words are not shown). */
export const AUTOMATIC_MESSAGES = {
  start: "The scheduled maintenance has started.",
  end: "The scheduled maintenance has been completed.",
} as const;

/** What the scheduler does through the store: post, notify, make the next maintenance. */
export interface SchedulerActions {
  appendUpdate(
    row: Record<string, unknown>,
    status: MaintenanceStatus,
    description: string,
    notify: boolean,
    atMs: number,
  ): MaintenanceUpdate;
  notify(
    row: Record<string, unknown>,
    kind: "reminder" | "start" | "end",
    atMs: number,
    update?: MaintenanceUpdate,
    minutesBefore?: number,
  ): void;
  /** With `next`, makes the window's next maintenance once one's start passes, whatever its status. */
  planNext(accountId: string, windowId: number, stored: StoredWindow, atMs: number): void;
}

/** A maintenance row with its window, as the scheduler reads it. */
interface Running {
  id: string;
  accountId: string;
  windowId: number;
  startsMs: number;
  endsMs: number;
  armedMs: number;
  window: StoredWindow;
}

/** One thing the scheduler does, at its time. */
interface Due {
  at: number;
  /** Reminders first, then a start, then an end, at the same instant. */
  rank: number;
  kind: string;
  maintenance: Running;
  minutesBefore?: number;
}

const ACTIVE_STATUSES = ["SCHEDULED", "IN_PROGRESS", "VERIFYING"];
const ACTIVE = `(${ACTIVE_STATUSES.map((status) => `'${status}'`).join(", ")})`;
const LONGEST_REMINDER_MS = REMINDER_MINUTES_MAX * 60_000;

/**
 * The service's scheduler, caught up to `nowMs`: every reminder, start and end now due, in
 * the order of their times, each once (`maintenance_events` keeps what was done).
 */
export function advanceMaintenances(
  db: DatabaseSync,
  nowMs: number,
  occurrences: MaintenanceOccurrences,
  actions: SchedulerActions,
): void {
  const candidates = statement(
    db,
    `SELECT m.*, w.window_json FROM maintenances m
       JOIN maintenance_windows w ON w.id = m.window_id
       WHERE m.starts_ms - ? <= ? AND (m.status IN ${ACTIVE} OR (? = 'next' AND NOT EXISTS
         (SELECT 1 FROM maintenance_events e WHERE e.maintenance_id = m.id AND e.kind = 'start')))`,
  ).all(LONGEST_REMINDER_MS, nowMs, occurrences);
  if (candidates.length === 0) return;
  transaction(db, () => {
    const due: Due[] = [];
    for (const row of candidates) {
      const maintenance: Running = {
        id: String(row.id),
        accountId: String(row.account_id),
        windowId: Number(row.window_id),
        startsMs: Number(row.starts_ms),
        endsMs: Number(row.ends_ms),
        armedMs: Number(row.armed_ms),
        window: JSON.parse(String(row.window_json)) as StoredWindow,
      };
      const done = new Set(
        statement(db, "SELECT kind FROM maintenance_events WHERE maintenance_id = ?")
          .all(maintenance.id)
          .map((event) => String(event.kind)),
      );
      const add = (event: Omit<Due, "maintenance">) => {
        if (event.at <= nowMs && !done.has(event.kind)) due.push({ ...event, maintenance });
      };
      // One cancelled or completed before its start still makes the next one then (`next`).
      const ended = !ACTIVE_STATUSES.includes(String(row.status));
      const { statusPageVisibility: shown } = maintenance.window;
      if (shown.enabled && !ended) {
        for (const minutes of new Set(shown.reminderMinutesBefore)) {
          const at = maintenance.startsMs - minutes * 60_000;
          // A reminder whose time had passed when the maintenance was planned is not sent.
          if (at >= maintenance.armedMs) {
            add({ at, rank: 0, kind: `reminder:${minutes}`, minutesBefore: minutes });
          }
        }
      }
      // One made after its time has passed starts (or ends) when it was made.
      add({ at: Math.max(maintenance.startsMs, maintenance.armedMs), rank: 1, kind: "start" });
      if (!ended) {
        add({ at: Math.max(maintenance.endsMs, maintenance.armedMs), rank: 2, kind: "end" });
      }
    }
    due.sort((x, y) => x.at - y.at || x.rank - y.rank);
    for (const event of due) carryOut(db, event, occurrences, actions);
  });
}

function carryOut(
  db: DatabaseSync,
  event: Due,
  occurrences: MaintenanceOccurrences,
  actions: SchedulerActions,
): void {
  const { maintenance } = event;
  statement(db, "INSERT INTO maintenance_events (maintenance_id, kind) VALUES (?, ?)").run(
    maintenance.id,
    event.kind,
  );
  const row = statement(db, "SELECT * FROM maintenances WHERE id = ?").get(maintenance.id);
  if (row === undefined) return;
  const status = String(row.status);
  const shown = maintenance.window.statusPageVisibility;
  if (event.minutesBefore !== undefined) {
    if (status === "SCHEDULED") {
      actions.notify(row, "reminder", event.at, undefined, event.minutesBefore);
    }
    return;
  }
  if (event.kind === "start") {
    if (occurrences === "next") {
      actions.planNext(maintenance.accountId, maintenance.windowId, maintenance.window, event.at);
    }
    if (!shown.autoStart || status !== "SCHEDULED") return;
    const notify = shown.enabled && shown.notifyOnStart;
    const update = actions.appendUpdate(
      row,
      "IN_PROGRESS",
      AUTOMATIC_MESSAGES.start,
      notify,
      event.at,
    );
    if (notify) actions.notify(row, "start", event.at, update);
    return;
  }
  if (!shown.autoEnd || (status !== "IN_PROGRESS" && status !== "VERIFYING")) return;
  const notify = shown.enabled && shown.notifyOnEnd;
  const update = actions.appendUpdate(row, "COMPLETED", AUTOMATIC_MESSAGES.end, notify, event.at);
  if (notify) actions.notify(row, "end", event.at, update);
}
