import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type {
  Maintenance,
  MaintenanceMoveRequest,
  MaintenanceStatus,
  MaintenanceUpdate,
  MaintenanceUpdateChangeRequest,
  MaintenanceUpdateRequest,
  MaintenanceWindow,
  MaintenanceWindowChangeRequest,
  MaintenanceWindowCreateRequest,
} from "../../api/schemas";
import type { ListOrder, MaintenanceOccurrences } from "../behaviour";
import { statement, transaction } from "../database";
import { ErrorResponse, notFound } from "../http-error";
import { occurrenceSlots, type Slot } from "../recurrence";
import { toIso } from "../time";
import {
  renderUpdate,
  renderWindow,
  type StoredWindow,
  scheduleOf,
  storedWindow,
} from "./maintenance-rows";
import { advanceMaintenances } from "./maintenance-scheduler";
import type { NotificationStore } from "./notifications";
import type { StatusPageStore } from "./status-pages";

/*
 * Maintenance windows, their maintenances (one per occurrence) and their updates. A window is
 * kept as the JSON of its fields with every default filled in; its maintenances carry their own
 * times and status. `advance` runs the service's scheduler (maintenance-scheduler.ts).
 */

/** Windows per page of the list, and maintenances per page of a window's list. */
export const MAINTENANCE_WINDOWS_PAGE_DEFAULT = 10;
export const MAINTENANCES_PAGE_DEFAULT = 10;

const SCHEDULE_FIELDS = [
  "startsAt",
  "endsAt",
  "repeatUnit",
  "repeatInterval",
  "repeatEndsAt",
  "timezone",
] as const;

export class MaintenanceWindowStore {
  constructor(
    private readonly db: DatabaseSync,
    private readonly statusPages: StatusPageStore,
    private readonly notifications: NotificationStore,
  ) {}

  /** `POST /v1/maintenance-windows`: the window and its maintenances. */
  create(
    accountId: string,
    body: MaintenanceWindowCreateRequest,
    nowMs: number,
    occurrences: MaintenanceOccurrences,
  ): MaintenanceWindow {
    const stored = storedWindow(body);
    this.checkReferences(accountId, stored);
    return transaction(this.db, () => {
      const id = this.insert(accountId, stored, nowMs);
      this.plan(accountId, id, stored, nowMs, occurrences);
      return this.get(accountId, id);
    });
  }

  /** Adds a window as a seed gives it, its maintenances made as the API's would be. */
  seed(
    accountId: string,
    body: MaintenanceWindowCreateRequest,
    nowMs: number,
    occurrences: MaintenanceOccurrences,
  ): { id: number; maintenanceIds: string[] } {
    const stored = storedWindow(body);
    this.checkReferences(accountId, stored);
    const id = this.insert(accountId, stored, nowMs);
    this.plan(accountId, id, stored, nowMs, occurrences);
    return { id, maintenanceIds: this.maintenanceRows(accountId, id).map((row) => row.id) };
  }

  /** `GET /v1/maintenance-windows/{id}`. */
  get(accountId: string, id: number): MaintenanceWindow {
    const row = statement(
      this.db,
      "SELECT * FROM maintenance_windows WHERE account_id = ? AND id = ?",
    ).get(accountId, id);
    if (row === undefined) throw notFound("maintenance window", String(id));
    return renderWindow(row);
  }

  /** `GET /v1/maintenance-windows`: oldest first, `limit` a page, pages from 1. */
  list(accountId: string, limit: number, page: number): MaintenanceWindow[] {
    return statement(
      this.db,
      "SELECT * FROM maintenance_windows WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?",
    )
      .all(accountId, limit, (page - 1) * limit)
      .map(renderWindow);
  }

  /**
   * `PUT /v1/maintenance-windows/{id}`: the fields sent change (`statusPageVisibility` as a
   * whole). A new schedule moves the maintenances not yet begun, in order, onto its slots.
   */
  change(
    accountId: string,
    id: number,
    body: MaintenanceWindowChangeRequest,
    nowMs: number,
    occurrences: MaintenanceOccurrences,
  ): MaintenanceWindow {
    return transaction(this.db, () => {
      const before = this.stored(accountId, id);
      const sent = Object.fromEntries(
        Object.entries(body).filter(([, value]) => value !== undefined),
      );
      const merged = storedWindow({ ...before, ...sent } as MaintenanceWindowCreateRequest);
      if (Date.parse(merged.endsAt) <= Date.parse(merged.startsAt)) {
        throw new ErrorResponse(400, "endsAt: must be after startsAt");
      }
      this.checkReferences(accountId, merged);
      statement(
        this.db,
        "UPDATE maintenance_windows SET window_json = ?, updated_ms = ? WHERE account_id = ? AND id = ?",
      ).run(JSON.stringify(merged), nowMs, accountId, id);
      if (SCHEDULE_FIELDS.some((field) => field in sent)) {
        this.plan(accountId, id, merged, nowMs, occurrences);
      }
      return this.get(accountId, id);
    });
  }

  /** `DELETE /v1/maintenance-windows/{id}`: with its maintenances and their updates. */
  remove(accountId: string, id: number): void {
    transaction(this.db, () => {
      this.get(accountId, id);
      for (const row of this.maintenanceRows(accountId, id)) this.deleteMaintenance(row.id);
      statement(this.db, "DELETE FROM maintenance_windows WHERE account_id = ? AND id = ?").run(
        accountId,
        id,
      );
    });
  }

  /** `GET …/{id}/maintenances`: by start, earliest first. */
  listMaintenances(
    accountId: string,
    id: number,
    limit: number,
    page: number,
    order: ListOrder,
  ): Maintenance[] {
    this.get(accountId, id);
    return statement(
      this.db,
      `SELECT * FROM maintenances WHERE account_id = ? AND window_id = ?
         ORDER BY starts_ms, id LIMIT ? OFFSET ?`,
    )
      .all(accountId, id, limit, (page - 1) * limit)
      .map((row) => this.renderMaintenance(row, order));
  }

  /** `GET …/maintenances/{maintenanceId}`. */
  getMaintenance(accountId: string, id: number, maintenanceId: string, order: ListOrder) {
    return this.renderMaintenance(this.maintenanceRow(accountId, id, maintenanceId), order);
  }

  /** `PATCH …/maintenances/{maintenanceId}`: moves that occurrence; its reminders re-arm. */
  move(
    accountId: string,
    id: number,
    maintenanceId: string,
    body: MaintenanceMoveRequest,
    nowMs: number,
    order: ListOrder,
  ): Maintenance {
    return transaction(this.db, () => {
      const row = this.maintenanceRow(accountId, id, maintenanceId);
      const startsMs =
        body.startsAt === undefined ? Number(row.starts_ms) : Date.parse(body.startsAt);
      const endsMs = body.endsAt === undefined ? Number(row.ends_ms) : Date.parse(body.endsAt);
      if (endsMs <= startsMs) throw new ErrorResponse(400, "endsAt: must be after startsAt");
      statement(
        this.db,
        "UPDATE maintenances SET starts_ms = ?, ends_ms = ?, armed_ms = ?, updated_ms = ? WHERE id = ?",
      ).run(startsMs, endsMs, nowMs, nowMs, maintenanceId);
      return this.getMaintenance(accountId, id, maintenanceId, order);
    });
  }

  /** `DELETE …/maintenances/{maintenanceId}`: with its updates. */
  removeMaintenance(accountId: string, id: number, maintenanceId: string): void {
    transaction(this.db, () => {
      this.maintenanceRow(accountId, id, maintenanceId);
      this.deleteMaintenance(maintenanceId);
    });
  }

  /** `POST …/updates`: the maintenance moves to its status; `notifySubscribers` tells everyone. */
  postUpdate(
    accountId: string,
    id: number,
    maintenanceId: string,
    body: MaintenanceUpdateRequest,
    nowMs: number,
  ): MaintenanceUpdate {
    return transaction(this.db, () => {
      const row = this.maintenanceRow(accountId, id, maintenanceId);
      const update = this.appendUpdate(
        row,
        body.status,
        body.description,
        body.notifySubscribers === true,
        nowMs,
      );
      if (body.notifySubscribers === true) this.notify(row, "update", nowMs, update);
      return update;
    });
  }

  /** `PUT …/updates/{updateId}`: text and status in place; nobody is notified again. */
  changeUpdate(
    accountId: string,
    id: number,
    maintenanceId: string,
    updateId: string,
    body: MaintenanceUpdateChangeRequest,
    nowMs: number,
  ): MaintenanceUpdate {
    return transaction(this.db, () => {
      const row = this.maintenanceRow(accountId, id, maintenanceId);
      const before = this.updateRow(maintenanceId, updateId);
      const status = body.status ?? String(before.status);
      statement(
        this.db,
        "UPDATE maintenance_updates SET description = ?, status = ? WHERE id = ?",
      ).run(body.description, status, updateId);
      const newest = this.updateRows(maintenanceId).at(-1);
      if (newest?.id === updateId) this.setStatus(maintenanceId, status, nowMs);
      return renderUpdate(this.updateRow(maintenanceId, updateId), Number(row.window_id));
    });
  }

  /** `DELETE …/updates/{updateId}`. */
  removeUpdate(accountId: string, id: number, maintenanceId: string, updateId: string): void {
    transaction(this.db, () => {
      this.maintenanceRow(accountId, id, maintenanceId);
      this.updateRow(maintenanceId, updateId);
      statement(this.db, "DELETE FROM maintenance_updates WHERE id = ?").run(updateId);
    });
  }

  /** Seeds an update of a maintenance, as posted at `atMs`. */
  seedUpdate(
    accountId: string,
    maintenanceId: string,
    update: { status: MaintenanceStatus; description: string; notifySubscribers: boolean },
    atMs: number,
  ): void {
    const row = statement(
      this.db,
      "SELECT * FROM maintenances WHERE account_id = ? AND id = ?",
    ).get(accountId, maintenanceId) as Record<string, unknown>;
    const posted = this.appendUpdate(
      row,
      update.status,
      update.description,
      update.notifySubscribers,
      atMs,
    );
    if (update.notifySubscribers) this.notify(row, "update", atMs, posted);
  }

  /**
   * The service's scheduler, caught up to `nowMs`: every reminder, start and end now due, in
   * the order of their times, each once.
   */
  advance(nowMs: number, occurrences: MaintenanceOccurrences): void {
    advanceMaintenances(this.db, nowMs, occurrences, {
      appendUpdate: (...args) => this.appendUpdate(...args),
      notify: (...args) => this.notify(...args),
      planNext: (accountId, windowId, stored, atMs) =>
        this.plan(accountId, windowId, stored, atMs, "next", true),
    });
  }

  private notify(
    row: Record<string, unknown>,
    kind: "reminder" | "start" | "end" | "update",
    atMs: number,
    update?: MaintenanceUpdate,
    minutesBefore?: number,
  ): void {
    const accountId = String(row.account_id);
    const windowId = Number(row.window_id);
    this.notifications.recordMaintenance(
      accountId,
      {
        kind,
        maintenanceWindowId: windowId,
        maintenanceWindowName: this.stored(accountId, windowId).name,
        maintenanceId: String(row.id),
        updateId: update?.id ?? null,
        message: update?.description ?? null,
        status: (update?.status as MaintenanceStatus | undefined) ?? null,
        minutesBefore: minutesBefore ?? null,
      },
      atMs,
    );
  }

  private appendUpdate(
    row: Record<string, unknown>,
    status: MaintenanceStatus,
    description: string,
    notify: boolean,
    atMs: number,
  ): MaintenanceUpdate {
    const id = randomUUID();
    statement(
      this.db,
      `INSERT INTO maintenance_updates (id, account_id, maintenance_id, status, description,
           notify_subscribers, created_ms, previous_status, previous_starts_ms, previous_ends_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      String(row.account_id),
      String(row.id),
      status,
      description,
      notify ? 1 : 0,
      atMs,
      String(row.status),
      Number(row.starts_ms),
      Number(row.ends_ms),
    );
    this.setStatus(String(row.id), status, atMs);
    return renderUpdate(this.updateRow(String(row.id), id), Number(row.window_id));
  }

  private setStatus(maintenanceId: string, status: string, atMs: number): void {
    statement(this.db, "UPDATE maintenances SET status = ?, updated_ms = ? WHERE id = ?").run(
      status,
      atMs,
      maintenanceId,
    );
  }

  private insert(accountId: string, stored: StoredWindow, nowMs: number): number {
    const result = statement(
      this.db,
      `INSERT INTO maintenance_windows (account_id, window_json, created_ms, updated_ms)
         VALUES (?, ?, ?, ?)`,
    ).run(accountId, JSON.stringify(stored), nowMs, nowMs);
    return Number(result.lastInsertRowid);
  }

  /**
   * Lays the schedule's slots still to end over the maintenances not yet begun: the k-th of
   * those keeps its id, updates and reminders sent, on the k-th slot; extra ones go, missing
   * ones are made. With `next`, the slots stop at the first to begin after `nowMs`.
   */
  private plan(
    accountId: string,
    windowId: number,
    stored: StoredWindow,
    nowMs: number,
    occurrences: MaintenanceOccurrences,
    addOnly = false,
  ): void {
    const rows = this.maintenanceRows(accountId, windowId);
    const begun = rows.filter((row) => row.startsMs <= nowMs || row.status !== "SCHEDULED");
    const waiting = rows.filter((row) => !begun.includes(row));
    const latestBegun = Math.max(Number.NEGATIVE_INFINITY, ...begun.map((row) => row.startsMs));
    // Counted from now, so a window begun long ago (or running for years) still makes its own.
    let slots: Slot[] = occurrenceSlots(scheduleOf(stored), nowMs).filter(
      (slot) => slot.startsMs > latestBegun,
    );
    if (occurrences === "next") {
      const next = slots.findIndex((slot) => slot.startsMs > nowMs);
      slots = next === -1 ? slots : slots.slice(0, next + 1);
    }
    if (addOnly) slots = slots.slice(waiting.length);
    slots.forEach((slot, index) => {
      const kept = addOnly ? undefined : waiting[index];
      if (kept === undefined) {
        statement(
          this.db,
          `INSERT INTO maintenances (id, account_id, window_id, starts_ms, ends_ms, status,
               armed_ms, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, 'SCHEDULED', ?, ?, ?)`,
        ).run(randomUUID(), accountId, windowId, slot.startsMs, slot.endsMs, nowMs, nowMs, nowMs);
      } else if (kept.startsMs !== slot.startsMs || kept.endsMs !== slot.endsMs) {
        statement(
          this.db,
          "UPDATE maintenances SET starts_ms = ?, ends_ms = ?, armed_ms = ?, updated_ms = ? WHERE id = ?",
        ).run(slot.startsMs, slot.endsMs, nowMs, nowMs, kept.id);
      }
    });
    if (!addOnly) {
      for (const extra of waiting.slice(slots.length)) this.deleteMaintenance(extra.id);
    }
  }

  private deleteMaintenance(maintenanceId: string): void {
    for (const table of ["maintenance_updates", "maintenance_events"]) {
      statement(this.db, `DELETE FROM ${table} WHERE maintenance_id = ?`).run(maintenanceId);
    }
    statement(this.db, "DELETE FROM maintenances WHERE id = ?").run(maintenanceId);
  }

  private maintenanceRows(accountId: string, windowId: number) {
    return statement(
      this.db,
      "SELECT id, starts_ms, ends_ms, status FROM maintenances WHERE account_id = ? AND window_id = ? ORDER BY starts_ms, id",
    )
      .all(accountId, windowId)
      .map((row) => ({
        id: String(row.id),
        startsMs: Number(row.starts_ms),
        endsMs: Number(row.ends_ms),
        status: String(row.status),
      }));
  }

  private maintenanceRow(accountId: string, windowId: number, maintenanceId: string) {
    this.get(accountId, windowId);
    const row = statement(
      this.db,
      "SELECT * FROM maintenances WHERE account_id = ? AND window_id = ? AND id = ?",
    ).get(accountId, windowId, maintenanceId);
    if (row === undefined) throw notFound("maintenance", maintenanceId);
    return row;
  }

  private updateRows(maintenanceId: string) {
    return statement(
      this.db,
      "SELECT * FROM maintenance_updates WHERE maintenance_id = ? ORDER BY created_ms, seq",
    ).all(maintenanceId);
  }

  private updateRow(maintenanceId: string, updateId: string) {
    const row = statement(
      this.db,
      "SELECT * FROM maintenance_updates WHERE maintenance_id = ? AND id = ?",
    ).get(maintenanceId, updateId);
    if (row === undefined) throw notFound("maintenance update", updateId);
    return row;
  }

  private stored(accountId: string, id: number): StoredWindow {
    const row = statement(
      this.db,
      "SELECT window_json FROM maintenance_windows WHERE account_id = ? AND id = ?",
    ).get(accountId, id);
    if (row === undefined) throw notFound("maintenance window", String(id));
    return JSON.parse(String(row.window_json)) as StoredWindow;
  }

  /** The pages a window names are the account's, and its services are on them (else 400). */
  private checkReferences(accountId: string, stored: StoredWindow): void {
    const { statusPageIds, serviceIds } = stored.statusPageVisibility;
    const onPages = new Set<string>();
    for (const pageId of statusPageIds) {
      let page: ReturnType<StatusPageStore["get"]>;
      try {
        page = this.statusPages.get(accountId, pageId);
      } catch {
        throw new ErrorResponse(
          400,
          `statusPageVisibility.statusPageIds: status page ${pageId} not found`,
        );
      }
      for (const card of page.cards) for (const service of card.services) onPages.add(service.id);
    }
    const missing = serviceIds.filter((serviceId) => !onPages.has(serviceId));
    if (missing.length > 0) {
      throw new ErrorResponse(
        400,
        `statusPageVisibility.serviceIds: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not on the window's status pages (their services: ${[...onPages].join(", ") || "none"})`,
      );
    }
  }

  private renderMaintenance(row: Record<string, unknown>, order: ListOrder): Maintenance {
    const windowId = Number(row.window_id);
    const updates = this.updateRows(String(row.id)).map((update) => renderUpdate(update, windowId));
    return {
      id: String(row.id),
      maintenanceWindowId: windowId,
      startsAt: toIso(Number(row.starts_ms)),
      endsAt: toIso(Number(row.ends_ms)),
      status: String(row.status),
      created_at: toIso(Number(row.created_ms)),
      updated_at: toIso(Number(row.updated_ms)),
      updates: order === "newest-first" ? updates.reverse() : updates,
    };
  }
}
