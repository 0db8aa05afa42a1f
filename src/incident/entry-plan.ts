import { type IncidentStatus, type IncidentUpdate, knownStatus } from "../api/schemas";
import { CLOCK_SKEW_MS } from "./creation";
import { type DeclaredEntry, entryChanges, foundPosted, postedAt } from "./entries";
import { reopenRefused, reopenWithoutFlagMessage } from "./lifecycle";

/** The entries the last apply posted, in order, with the ids the service gave them. */
export interface RecordedEntries {
  entries: DeclaredEntry[];
  ids: string[];
}

/** One request (or none, for `found`) that brings an entry onto the status page. */
export type EntryAction =
  /** Posted before without its id recorded (a stopped run, an answer without it): recorded now. */
  | { kind: "found"; index: number; updateId: string }
  /** Posted, and its message or date changed: changed in place, notifying nobody. */
  | { kind: "edit"; index: number; updateId: string }
  /** Not on the status page yet: posted, notifying as declared. */
  | { kind: "post"; index: number };

export interface EntryPlan {
  /** In the order to carry them out: ids learned and edits first, then the entries in order. */
  actions: EntryAction[];
  /** Why nothing may be sent: a posted entry removed, reordered or changed, or a reopen. */
  refusal?: string;
}

/**
 * What an apply sends for the declared entries, given what the last apply recorded and what
 * the service shows now (read just before): each posted entry once, in order, none twice.
 */
export function planEntries(
  declared: readonly DeclaredEntry[],
  options: {
    recorded: RecordedEntries;
    live: { status: IncidentStatus | null; updates: readonly IncidentUpdate[] };
    reopen: boolean | undefined;
    /** When the last apply was (ms): an update created before it is not one a stopped run posted. */
    appliedAt?: number | undefined;
  },
): EntryPlan {
  const { recorded, live } = options;
  const changes = entryChanges(recorded.entries, declared);
  if (changes.violations.length > 0) {
    return { actions: [], refusal: changes.violations.map((v) => v.message).join(" ") };
  }
  // A posted entry whose id the service's answer did not give is known by its text as posted.
  const known = new Set(recorded.ids.filter(Boolean));
  const unnamed = recorded.entries.flatMap((_, index) => (recorded.ids[index] ? [] : [index]));
  // Its text as recorded, or as declared: a run stopped after an edit of it in place.
  const learned = new Map(
    unnamed.flatMap((index) => {
      // Stryker disable next-line ArrayDeclaration: a declared entry is missing only when it was removed, which returns a refusal before
      const texts = [recorded.entries[index], declared[index]].flatMap((entry) => entry ?? []);
      const [id] = texts.flatMap((entry) => [
        ...foundPosted([entry], [0], live.updates, { known }).values(),
      ]);
      if (id !== undefined) known.add(id);
      return id === undefined ? [] : [[index, id] as const];
    }),
  );
  const actions: EntryAction[] = [...learned].map(([index, updateId]) => ({
    kind: "found",
    index,
    updateId,
  }));
  for (const { index } of changes.edited) {
    const updateId = recorded.ids[index] || learned.get(index);
    if (updateId === undefined) {
      return {
        actions: [],
        refusal: `updates[${index}] was posted, and the service shows no update with its text to change: edit it on the status page, or put its message back as posted.`,
      };
    }
    actions.push({ kind: "edit", index, updateId });
  }
  // A change in place sends the entry's status again; sent to the newest update with a status
  // of an incident resolved otherwise, it could set the open status back.
  const newest = newestWithStatus(live.updates);
  for (const action of actions) {
    const entry = declared[action.index] as DeclaredEntry;
    if (
      action.kind === "edit" &&
      newest.includes(action.updateId) &&
      reopenRefused(live.status, entry.status, options.reopen)
    ) {
      return {
        actions: [],
        refusal: `updates[${action.index}]: the incident is RESOLVED on the status page, and changing this entry, its newest update with a status (${entry.status}), could set that status back. Leave its message as posted and add a new entry to correct it, or set "reopen: true" to reopen the incident on purpose.`,
      };
    }
  }
  const found = foundPosted(declared, changes.added, live.updates, {
    known,
    since: options.appliedAt === undefined ? undefined : options.appliedAt - CLOCK_SKEW_MS,
  });
  let status = live.status;
  for (const index of changes.added) {
    const updateId = found.get(index);
    const entry = declared[index] as DeclaredEntry;
    if (updateId !== undefined) {
      actions.push({ kind: "found", index, updateId });
    } else {
      if (reopenRefused(status, entry.status, options.reopen)) {
        return {
          actions: [],
          refusal: `updates[${index}]: the incident is RESOLVED on the status page and this entry ${reopenWithoutFlagMessage(entry.status)}`,
        };
      }
      actions.push({ kind: "post", index });
    }
    status = entry.status;
  }
  return { actions };
}

/** The ids of the newest updates that carry a status: every one of that time, as ties say nothing. */
function newestWithStatus(updates: readonly IncidentUpdate[]): string[] {
  const carrying = updates.filter((update) => knownStatus(update.status) !== undefined);
  const last = Math.max(...carrying.map(postedAt));
  return carrying.flatMap((update) => (postedAt(update) === last && update.id ? [update.id] : []));
}
