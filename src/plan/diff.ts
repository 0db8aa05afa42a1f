import type { LoadedDefinition } from "../definitions/parsed-file";
import { compareText } from "../definitions/problem";
import type { IncidentDefinition } from "../definitions/schema";
import { declarationOf, diffDeclarations } from "../incident";
import type { FieldChange, IncidentChange, ListChanges } from "./types";

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
): DefinitionDiff {
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
        incidentId: current.definition.id,
        file: current.file,
        after: current.definition,
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
      incidentId: current.definition.id,
      file: current.file,
      before: previous.definition,
      after: current.definition,
      ...update,
    });
  }
  const declaring = new Map(head.map((loaded) => [loaded.definition.id, loaded.definition]));
  for (const [resource, previous] of before) {
    if (after.has(resource) || renamed.has(resource)) continue;
    // The provider releases an incident another resource declares, whatever onRemove says.
    const redeclaredBy = declaring.get(previous.definition.id)?.resource;
    changes.push({
      kind: "remove",
      resource,
      incidentId: previous.definition.id,
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
      "replace" | "applies" | "fields" | "services" | "evidence"
    >
  | undefined {
  const applied = diffDeclarations(declarationOf(before), declarationOf(after));
  const fields: FieldChange[] = [];
  if (before.resource !== after.resource) {
    fields.push({ field: "resource", before: before.resource, after: after.resource });
  }
  if (applied.replace) fields.push({ field: "id", before: before.id, after: after.id });
  for (const field of applied.changed) {
    if (field !== "services")
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
  const changed =
    fields.length > 0 ||
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
  };
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

function show(value: string | number | boolean | null | undefined): string | undefined {
  if (value === undefined || value === false) return undefined;
  return String(value);
}
