import { type IncidentStatus, type IncidentUpdate, knownStatus } from "../api/schemas";
import { normalizeMessage, sameMessage } from "../definitions/same-incident";

export { sameMessage };

/*
 * The entries of `updates`: each posted once, in order, never removed or reordered; a message
 * may be edited in place. Rules for `plan` and the provider alike.
 */

/** One entry of `updates`, as a declaration carries it. */
export interface DeclaredEntry {
  status: IncidentStatus;
  message: string;
  /** Sent to every subscriber when posted; never again. */
  notify: boolean;
  /** The date customers see, backfilled; absent: when it is posted. */
  at?: string;
}

/** Why a change of posted entries is refused; `plan` reports it as a lifecycle violation. */
export type EntryRule =
  | "posted-update-removed"
  | "posted-updates-reordered"
  | "posted-update-status-changed"
  | "posted-update-notify";

export interface EntryViolation {
  readonly rule: EntryRule;
  /** The entry the violation is about, from 0. */
  readonly index: number;
  readonly message: string;
}

/** How the entries of a declaration differ from those posted before. */
export interface EntryChanges {
  /** Entries past the posted ones, to post in order (indexes from 0). */
  readonly added: number[];
  /** Posted entries whose message or date changed: changed in place, notifying nobody. */
  readonly edited: { readonly index: number; readonly before: DeclaredEntry }[];
  readonly violations: EntryViolation[];
}

/**
 * Compares the declared entries with those posted before (`posted`, in order). Posted ones
 * must stay, in their order, with their status, and cannot start to notify; a changed message
 * or date is an edit. Entries past them are added. A posted entry declared nowhere whose place
 * a later posted one took (or nothing) is removed, and those after it moved up by one: one
 * removal, not a status change and a reorder.
 */
export function entryChanges(
  posted: readonly DeclaredEntry[],
  declared: readonly DeclaredEntry[],
): EntryChanges {
  const violations: EntryViolation[] = [];
  const edited: EntryChanges["edited"][number][] = [];
  let removed = 0;
  posted.forEach((before, index) => {
    // Where the entry stands once the removals before it are taken out.
    const at = index - removed;
    const after = declared[at];
    const inPlace = after !== undefined && sameMessage(after.message, before.message);
    // A declared entry in the place of a later posted one of the same message is that one,
    // not this one moved: editing the first of two identical messages is an edit.
    const moved = inPlace
      ? -1
      : declared.findIndex(
          (entry, place) =>
            sameMessage(entry.message, before.message) &&
            !posted.some(
              (other, later) =>
                later > index &&
                later - removed === place &&
                sameMessage(other.message, entry.message),
            ),
        );
    const laterPosted = (entry: DeclaredEntry) =>
      posted.some((other, later) => later > index && sameMessage(other.message, entry.message));
    if (!inPlace && moved === -1 && (after === undefined || laterPosted(after))) {
      removed += 1;
      violations.push({
        rule: "posted-update-removed",
        index,
        message: `updates[${index}] ("${preview(before.message)}") is posted, and is no longer declared: customers have read it, and it stays on the status page. Put the entry back (edit its message to correct it) and add a new entry to say more.`,
      });
      return;
    }
    if (moved !== -1) {
      violations.push({
        rule: "posted-updates-reordered",
        index,
        message: `updates[${index}] ("${preview(before.message)}") is posted, and is now updates[${moved}]: posted updates keep their order. Put the entries back in the order they were posted, and add new ones after them.`,
      });
      return;
    }
    // Stryker disable next-line ConditionalExpression: an entry with nothing in its place was taken as removed just above
    if (after === undefined) return;
    if (after.status !== before.status) {
      violations.push({
        rule: "posted-update-status-changed",
        index,
        message: `updates[${index}] was posted with status ${before.status}; a posted update keeps its status. Put ${before.status} back, and add a new entry with status ${after.status} that tells customers why.`,
      });
    }
    if (after.notify && !before.notify) {
      violations.push({
        rule: "posted-update-notify",
        index,
        message: `updates[${index}] was posted without notifying, and subscribers are notified only when an update is posted: remove its "notify: true", and add a new entry with "notify: true" to tell them.`,
      });
    }
    if (!sameMessage(after.message, before.message) || after.at !== before.at) {
      edited.push({ index: at, before });
    }
  });
  const added = declared
    .slice(posted.length - removed)
    .map((_, offset) => posted.length - removed + offset);
  return { added, edited, violations };
}

/** When an update was posted: its creation, else its public date; 0 when it has neither. */
export function postedAt(update: IncidentUpdate): number {
  return Date.parse(update.created_at ?? update.publicIncidentUpdateDate ?? "") || 0;
}

/** Updates in the order they were posted, oldest first; ties keep the service's order. */
export function oldestFirst(updates: readonly IncidentUpdate[]): IncidentUpdate[] {
  return [...updates].sort((a, b) => postedAt(a) - postedAt(b));
}

/**
 * The updates that may be the first one posted: every one of the oldest time, as the
 * service's order of updates that tie (a date without a time, the same second) says nothing.
 */
export function earliest(updates: readonly IncidentUpdate[]): IncidentUpdate[] {
  const first = Math.min(...updates.map(postedAt));
  return updates.filter((update) => postedAt(update) === first);
}

/**
 * Whether a service's update is the posting of `entry`: its message, and its status unless
 * the service left it out or sent one this tool does not know.
 */
export function isPostingOf(update: IncidentUpdate, entry: DeclaredEntry): boolean {
  const status = knownStatus(update.status);
  return (
    sameMessage(update.description, entry.message) &&
    (status === undefined || status === entry.status)
  );
}

/**
 * The added entries posted already unrecorded: each matched, in any order, to an unknown update
 * created since `since` with its message (and status); up to the first not found. Their ids.
 */
export function foundPosted(
  declared: readonly DeclaredEntry[],
  added: readonly number[],
  live: readonly IncidentUpdate[],
  options: { known: ReadonlySet<string>; since?: number | undefined },
): Map<number, string> {
  const { known, since } = options;
  const unknown = live.filter(
    (update) =>
      update.id &&
      !known.has(update.id) &&
      // Stryker disable next-line ConditionalExpression: with no `since`, `!(x < undefined)` is true as well
      (since === undefined || !(latestCreation(update) < since)),
  );
  const found = new Map<number, string>();
  const used = new Set<string>();
  for (const index of added) {
    const entry = declared[index];
    const match =
      // Stryker disable next-line StringLiteral: only updates with an id are left here
      entry && unknown.find((update) => !used.has(update.id ?? "") && isPostingOf(update, entry));
    if (!match?.id) break;
    used.add(match.id);
    found.set(index, match.id);
  }
  return found;
}

/**
 * The latest instant an update's creation time may stand for (ms): the end of its day when
 * the service gives a date alone; `NaN` when it gives none.
 */
function latestCreation(update: IncidentUpdate): number {
  // Stryker disable next-line StringLiteral: Date.parse reads neither text, and neither is a date alone
  const created = update.created_at ?? "";
  const at = Date.parse(created);
  return /^\d{4}-\d{2}-\d{2}$/.test(created) ? at + DAY_MS - 1 : at;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A message as quoted in a sentence: its first line, at most 60 characters. */
export function preview(message: string): string {
  // Stryker disable next-line StringLiteral: split always gives a first element
  const line = normalizeMessage(message).split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
