import type { IncidentStatus, IncidentUpdate } from "../api/schemas";
import { type DeclaredEntry, entryChanges, foundPosted } from "./entries";
import { reopenRefused, reopenWithoutFlagMessage } from "./lifecycle";

/** The entries the last apply posted, in order, with the ids the service gave them. */
export interface RecordedEntries {
  entries: DeclaredEntry[];
  ids: string[];
}

/** One request (or none, for `found`) that brings an entry onto the status page. */
export type EntryAction =
  /** Posted by a run stopped before it recorded it: recorded now, sent again never. */
  | { kind: "found"; index: number; updateId: string }
  /** Posted, and its message or date changed: changed in place, notifying nobody. */
  | { kind: "edit"; index: number; updateId: string }
  /** Not on the status page yet: posted, notifying as declared. */
  | { kind: "post"; index: number };

export interface EntryPlan {
  /** In the order to carry them out: edits first, then the entries in declared order. */
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
  },
): EntryPlan {
  const { recorded, live } = options;
  const changes = entryChanges(recorded.entries, declared);
  if (changes.violations.length > 0) {
    return { actions: [], refusal: changes.violations.map((v) => v.message).join(" ") };
  }
  const actions: EntryAction[] = changes.edited.flatMap(({ index }) => {
    const updateId = recorded.ids[index];
    return updateId ? [{ kind: "edit" as const, index, updateId }] : [];
  });
  const found = foundPosted(declared, changes.added, live.updates, new Set(recorded.ids));
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
