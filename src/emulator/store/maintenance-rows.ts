import type { DatabaseSync } from "node:sqlite";
import type {
  MaintenanceUpdate,
  MaintenanceWindow,
  MaintenanceWindowCreateRequest,
  RepeatUnit,
  Severity,
} from "../../api/schemas";
import { statement } from "../database";
import type { Schedule } from "../recurrence";
import { toIso } from "../time";

/*
 * A maintenance window as the store keeps it (the JSON of its fields, every default filled
 * in), and the answers rendered from its rows.
 */

/** How a window shows on status pages, every default filled in. */
export interface Visibility {
  enabled: boolean;
  statusPageIds: string[];
  serviceIds: string[];
  affectAllServices: boolean;
  severity: Severity | null;
  notifyOnStart: boolean;
  notifyOnEnd: boolean;
  reminderMinutesBefore: number[];
  autoStart: boolean;
  autoEnd: boolean;
  showAffectedServices: boolean;
  suppressAutoIncidents: boolean;
}

/** A window's fields as kept, every default filled in. */
export interface StoredWindow {
  name: string;
  description: string | null;
  startsAt: string;
  endsAt: string;
  repeatUnit: RepeatUnit | null;
  repeatInterval: number | null;
  repeatEndsAt: string | null;
  timezone: string | null;
  tags: string[];
  pauseAllChecks: boolean;
  silenceAllAlerts: boolean;
  silenceAlertsTags: string[];
  statusPageVisibility: Visibility;
}

const VISIBILITY_DEFAULTS: Visibility = {
  enabled: false,
  statusPageIds: [],
  serviceIds: [],
  affectAllServices: false,
  severity: null,
  notifyOnStart: false,
  notifyOnEnd: false,
  reminderMinutesBefore: [],
  autoStart: true,
  autoEnd: true,
  showAffectedServices: true,
  suppressAutoIncidents: false,
};

/** The fields of a create, every default filled in (times kept as sent, normalised to UTC). */
export function storedWindow(body: MaintenanceWindowCreateRequest): StoredWindow {
  const repeats = body.repeatUnit !== null;
  return {
    name: body.name,
    description: body.description ?? null,
    startsAt: toIso(Date.parse(body.startsAt)),
    endsAt: toIso(Date.parse(body.endsAt)),
    repeatUnit: body.repeatUnit,
    repeatInterval: repeats ? (body.repeatInterval ?? 1) : null,
    repeatEndsAt: repeats ? (body.repeatEndsAt ?? null) : null,
    timezone: body.timezone ?? null,
    tags: body.tags ?? [],
    pauseAllChecks: body.pauseAllChecks ?? false,
    silenceAllAlerts: body.silenceAllAlerts ?? false,
    silenceAlertsTags: body.silenceAlertsTags ?? [],
    statusPageVisibility: {
      ...VISIBILITY_DEFAULTS,
      ...withoutUndefined(body.statusPageVisibility ?? {}),
    },
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function scheduleOf(stored: StoredWindow): Schedule {
  return {
    startsMs: Date.parse(stored.startsAt),
    endsMs: Date.parse(stored.endsAt),
    repeatUnit: stored.repeatUnit,
    repeatInterval: stored.repeatInterval ?? 1,
    repeatEndsAt: stored.repeatEndsAt,
    timezone: stored.timezone,
  };
}

export function renderWindow(row: Record<string, unknown>): MaintenanceWindow {
  const stored = JSON.parse(String(row.window_json)) as StoredWindow;
  return {
    id: Number(row.id),
    ...stored,
    created_at: toIso(Number(row.created_ms)),
    updated_at: toIso(Number(row.updated_ms)),
  };
}

export function renderUpdate(row: Record<string, unknown>, windowId: number): MaintenanceUpdate {
  const instant = (value: unknown) => (value === null ? null : toIso(Number(value)));
  return {
    id: String(row.id),
    maintenanceWindowId: windowId,
    maintenanceId: String(row.maintenance_id),
    status: String(row.status),
    description: String(row.description),
    notifySubscribers: Number(row.notify_subscribers) === 1,
    created_at: toIso(Number(row.created_ms)),
    previousStatus: row.previous_status === null ? null : String(row.previous_status),
    previousStartsAt: instant(row.previous_starts_ms),
    previousEndsAt: instant(row.previous_ends_ms),
  };
}

/** A window whose `statusPageVisibility` names something, as removing that thing reads it. */
export interface NamingWindow {
  id: number;
  stored: StoredWindow;
}

/** The account's windows whose visibility names `id` in `field`, oldest first. */
export function windowsNaming(
  db: DatabaseSync,
  accountId: string,
  field: "statusPageIds" | "serviceIds",
  id: string,
): NamingWindow[] {
  return statement(
    db,
    "SELECT id, window_json FROM maintenance_windows WHERE account_id = ? ORDER BY id",
  )
    .all(accountId)
    .map((row) => ({
      id: Number(row.id),
      stored: JSON.parse(String(row.window_json)) as StoredWindow,
    }))
    .filter((window) => window.stored.statusPageVisibility[field].includes(id));
}

/** Keeps a window's visibility as changed by a removal (the window's updated time stays, as a card's). */
export function rewriteVisibility(
  db: DatabaseSync,
  accountId: string,
  window: NamingWindow,
  visibility: Pick<Visibility, "statusPageIds" | "serviceIds">,
): void {
  const stored = {
    ...window.stored,
    statusPageVisibility: { ...window.stored.statusPageVisibility, ...visibility },
  };
  statement(
    db,
    "UPDATE maintenance_windows SET window_json = ? WHERE account_id = ? AND id = ?",
  ).run(JSON.stringify(stored), accountId, window.id);
}
