import type { LoadedDefinition } from "../definitions/parsed-file";
import { compareText } from "../definitions/problem";
import type { IncidentDefinition } from "../definitions/schema";
import {
  type DeclaredEntry,
  declarationOf,
  diffDeclarations,
  type EntryViolation,
  entryChanges,
  incidentLabel,
  opensSameIncident,
} from "../incident";
import type { EntryChange, FieldChange, IncidentChange, ListChanges } from "./types";

export interface DiffOptions {
  /**
   * The incident id the stack's state gives each resource (`plan --stack` where it can read the
   * state): a definition without `id` is named by it once the stack opened it.
   */
  readonly incidentIds?: ReadonlyMap<string, string> | undefined;
}

export interface DefinitionDiff {
  readonly changes: IncidentChange[];
  readonly unchanged: number;
}

/**
 * Compares definitions by resource name, the identity Pulumi tracks. Moving a
 * definition to another file or reordering keys is not a change; the order of
 * services and evidence ids is not either.
 */
export function diffDefinitions(
  base: readonly LoadedDefinition[],
  head: readonly LoadedDefinition[],
  options: DiffOptions = {},
): DefinitionDiff {
  const { incidentIds } = options;
  const before = byResource(base);
  const after = byResource(head);
  const changes: IncidentChange[] = [];
  /** Base resources renamed through an alias: an update of the new name, not a removal. */
  const renamed = new Set<string>();
  let unchanged = 0;
  for (const [resource, current] of after) {
    const alias = current.definition.aliases?.find(
      (name) => before.has(name) && !after.has(name) && !renamed.has(name),
    );
    const previous = before.get(resource) ?? (alias === undefined ? undefined : before.get(alias));
    if (alias !== undefined && !before.has(resource)) renamed.add(alias);
    if (!previous) {
      changes.push({
        kind: "add",
        resource,
        incidentId: labelOf(current.definition),
        file: current.file,
        after: current.definition,
        entries: entriesOf([], current.definition.updates ?? []).entries,
      });
      continue;
    }
    const update = compare(previous.definition, current.definition);
    if (!update) {
      unchanged++;
      continue;
    }
    changes.push({
      kind: "update",
      resource,
      incidentId: knownLabel(current.definition, incidentIds),
      file: current.file,
      before: previous.definition,
      after: current.definition,
      ...update,
    });
  }
  const declaring = new Map(head.map((loaded) => [loaded.definition.id, loaded.definition]));
  const added = head.filter((loaded) => !before.has(loaded.definition.resource));
  for (const [resource, previous] of before) {
    if (after.has(resource) || renamed.has(resource)) continue;
    // The provider releases an incident another resource declares or takes over (a new one
    // opening the same incident finds it), whatever onRemove says.
    const { id } = previous.definition;
    const redeclaredBy =
      id === undefined
        ? added.find((loaded) => opensSameIncident(previous.definition, loaded.definition))
            ?.definition.resource
        : declaring.get(id)?.resource;
    changes.push({
      kind: "remove",
      resource,
      incidentId: knownLabel(previous.definition, incidentIds),
      file: previous.file,
      before: previous.definition,
      onRemove: redeclaredBy === undefined ? previous.definition.onRemove : "release",
      ...(redeclaredBy === undefined ? {} : { redeclaredBy }),
    });
  }
  changes.sort((a, b) => compareText(a.resource, b.resource));
  return { changes, unchanged };
}

/**
 * One definition against its base: the fields `up` applies come from the incident's one diff
 * rule (`diffDeclarations`), so a plan and a `pulumi preview` never disagree; `reason` and
 * `evidence` are for reviewers and change nothing on the status page.
 */
function compare(
  before: IncidentDefinition,
  after: IncidentDefinition,
):
  | Pick<
      Extract<IncidentChange, { kind: "update" }>,
      "replace" | "applies" | "fields" | "services" | "evidence" | "entries"
    >
  | undefined {
  const applied = diffDeclarations(declarationOf(before), declarationOf(after));
  const fields: FieldChange[] = [];
  if (before.resource !== after.resource) {
    fields.push({ field: "resource", before: before.resource, after: after.resource });
  }
  if (applied.replace || before.id !== after.id) {
    fields.push({ field: "id", before: before.id, after: after.id });
  }
  for (const field of applied.changed) {
    if (field !== "services" && field !== "updates")
      fields.push({ field, before: show(before[field]), after: show(after[field]) });
  }
  if (before.reason !== after.reason) {
    fields.push({ field: "reason", before: before.reason, after: after.reason });
  }
  const stacks = (definition: IncidentDefinition) => definition.stacks?.join(", ");
  if (stacks(before) !== stacks(after)) {
    fields.push({ field: "stacks", before: stacks(before), after: stacks(after) });
  }
  const { services } = applied;
  const evidence = {
    heartbeats: compareLists(before.evidence?.heartbeats, after.evidence?.heartbeats),
    checks: compareLists(before.evidence?.checks, after.evidence?.checks),
  };
  const { entries } = entriesOf(before.updates ?? [], after.updates ?? []);
  const changed =
    fields.length > 0 ||
    entries.length > 0 ||
    applied.changed.includes("updates") ||
    services.added.length + services.removed.length + services.renamed.length > 0 ||
    evidence.heartbeats.added.length + evidence.heartbeats.removed.length > 0 ||
    evidence.checks.added.length + evidence.checks.removed.length > 0;
  if (!changed) return undefined;
  return {
    replace: applied.replace,
    applies: applied.replace || applied.changed.length > 0,
    fields,
    services,
    evidence,
    entries,
  };
}

/**
 * The entries a change posts and edits, by the one rule of `entryChanges` (posted entries are
 * those of the base), and what it does to posted ones that the lifecycle refuses.
 */
export function entriesOf(
  before: readonly DeclaredEntry[],
  after: readonly DeclaredEntry[],
): { entries: EntryChange[]; violations: EntryViolation[] } {
  const changes = entryChanges(before, after);
  const entries: EntryChange[] = [];
  for (const { index, before: old } of changes.edited) {
    const entry = after[index] as DeclaredEntry;
    entries.push({ ...entryOf(entry, index, "edit"), before: old.message });
  }
  for (const index of changes.added)
    entries.push(entryOf(after[index] as DeclaredEntry, index, "post"));
  return { entries, violations: changes.violations };
}

function entryOf(entry: DeclaredEntry, index: number, kind: EntryChange["kind"]): EntryChange {
  return {
    kind,
    index,
    status: entry.status,
    notify: kind === "post" && entry.notify,
    ...(entry.at === undefined ? {} : { at: entry.at }),
    message: entry.message,
  };
}

/** How a plan names an incident it adds: its id, or the resource that will open it. */
function labelOf(definition: IncidentDefinition): string {
  return incidentLabel(definition.id, definition.resource);
}

/**
 * How a plan names an incident the base declares already: its id; without one, the id the
 * stack's state gave it, new only when the state read holds none, and otherwise in the stack's
 * state, unread (no state, or no `--stack`): it is no longer new once its first up ran.
 */
function knownLabel(
  definition: IncidentDefinition,
  incidentIds: ReadonlyMap<string, string> | undefined,
): string {
  if (definition.id !== undefined) return definition.id;
  if (incidentIds === undefined) return `(id in the stack's state: ${definition.resource})`;
  return incidentIds.get(definition.resource) ?? labelOf(definition);
}

function compareLists(before: readonly string[] = [], after: readonly string[] = []): ListChanges {
  return {
    added: after.filter((id) => !before.includes(id)),
    removed: before.filter((id) => !after.includes(id)),
  };
}

function byResource(definitions: readonly LoadedDefinition[]): Map<string, LoadedDefinition> {
  const map = new Map<string, LoadedDefinition>();
  for (const loaded of definitions) {
    if (!map.has(loaded.definition.resource)) map.set(loaded.definition.resource, loaded);
  }
  return map;
}

function show(
  value: string | number | boolean | null | undefined | IncidentDefinition["closing"],
): string | undefined {
  if (value === undefined || value === false) return undefined;
  if (typeof value === "object" && value !== null) {
    return `${JSON.stringify(value.message)}${value.notify ? ", sent to every subscriber" : ", notifying nobody"}`;
  }
  return String(value);
}
