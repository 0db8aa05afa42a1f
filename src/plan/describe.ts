import type { IncidentDefinition } from "../definitions/schema";
import { incidentNamed, resolvingWords } from "../incident";
import { serviceLabel } from "./policy";
import { OTHER_STACKS } from "./stack-effects";
import type { EntryChange, IncidentChange, Plan, PolicyFinding, StackEffect } from "./types";

/** One line of a change, shared by the Markdown and text renderers. */
export interface ChangeRow {
  readonly field: string;
  readonly before?: string;
  readonly after?: string;
}

/**
 * A change's incident as every line names it (`incidentNamed`), as declared after the change
 * (before it, for a removal), with the plan's label of an id not known (`(new: …)`, `(id in
 * the stack's state: …)`) after its name.
 */
export function changeNamed(change: IncidentChange): string {
  const definition = change.kind === "remove" ? change.before : change.after;
  return incidentNamed({ ...change, name: definition.name });
}

/** A finding's incident; a finding about no definition names none. */
export function findingNamed(finding: PolicyFinding): string {
  return incidentNamed(finding) || "(no definition)";
}

/** The rows of an update: changed fields, then services and evidence item by item. */
export function updateRows(change: Extract<IncidentChange, { kind: "update" }>): ChangeRow[] {
  const rows: ChangeRow[] = change.fields.map((field) => ({
    field: field.field,
    before: field.before,
    after: field.after,
  }));
  for (const service of change.services.added)
    rows.push({ field: "services", after: serviceLabel(service) });
  for (const service of change.services.removed) {
    rows.push({ field: "services", before: serviceLabel(service) });
  }
  for (const rename of change.services.renamed) {
    rows.push({
      field: `services (${rename.id}) name`,
      before: rename.before,
      after: rename.after,
    });
  }
  for (const kind of ["heartbeats", "checks"] as const) {
    for (const id of change.evidence[kind].added)
      rows.push({ field: `evidence.${kind}`, after: id });
    for (const id of change.evidence[kind].removed)
      rows.push({ field: `evidence.${kind}`, before: id });
  }
  return rows;
}

/** The rows of a new definition: every field it sets. */
export function definitionRows(definition: IncidentDefinition): ChangeRow[] {
  const rows: ChangeRow[] = [
    { field: "name", after: definition.name },
    { field: "severity", after: definition.severity },
    { field: "status", after: definition.status },
    ...definition.services.map((service) => ({ field: "services", after: serviceLabel(service) })),
  ];
  if (definition.duration !== undefined && definition.duration !== null) {
    rows.push({ field: "duration", after: String(definition.duration) });
  }
  for (const id of definition.evidence?.heartbeats ?? [])
    rows.push({ field: "evidence.heartbeats", after: id });
  for (const id of definition.evidence?.checks ?? [])
    rows.push({ field: "evidence.checks", after: id });
  if (definition.onRemove !== "release")
    rows.push({ field: "onRemove", after: definition.onRemove });
  if (definition.onRemove === "resolve")
    rows.push({ field: "closing", after: resolvingWords(definition) });
  if (definition.stacks !== undefined)
    rows.push({ field: "stacks", after: definition.stacks.join(", ") });
  return rows;
}

/** What removing a definition does on the status page. */
export function removeOutcome(change: Extract<IncidentChange, { kind: "remove" }>): string {
  if (change.redeclaredBy !== undefined) {
    return `released: resource ${change.redeclaredBy} declares this incident now, so it is left on the status page as it is, whatever onRemove says`;
  }
  const outcome =
    change.onRemove === "resolve"
      ? `resolved on the status page with ${resolvingWords(change.before)}, then no longer managed`
      : "released: left on the status page as it is, no longer managed";
  return change.byStacks ? `${outcome} (its stacks no longer names this stack)` : outcome;
}

/** What a change of `stacks` does on one stack, for a reviewer. */
export function stackEffectLine(effect: StackEffect): string {
  const where = effect.stack === OTHER_STACKS ? effect.stack : `stack ${effect.stack}`;
  switch (effect.effect) {
    case "added":
      return `${where}: added: declared there, and taken up by its next up`;
    case "released":
      return `${where}: released: left on the status page as it is, no longer managed there`;
    case "resolved":
      return `${where}: resolved on the status page by its next up (onRemove: resolve), then no longer managed there`;
  }
}

/** `1 to add, 2 to update, 1 to remove`, or `no changes`. */
export function countsSentence(plan: Plan): string {
  const { add, update, remove } = plan.summary;
  if (add + update + remove === 0) return "no changes";
  return [
    add > 0 ? `${add} to add` : "",
    update > 0 ? `${update} to update` : "",
    remove > 0 ? `${remove} to remove` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** `2 errors, 1 warning`, or `no findings`. */
export function findingsSentence(plan: Plan): string {
  const { errors, warnings } = plan.summary;
  const parts = [
    errors > 0 ? `${errors} ${errors === 1 ? "error" : "errors"}` : "",
    warnings > 0 ? `${warnings} ${warnings === 1 ? "warning" : "warnings"}` : "",
  ].filter(Boolean);
  return parts.length === 0 ? "no findings" : parts.join(", ");
}

/**
 * What one entry does, for a reviewer: where it is, what happens, its status and whom it
 * reaches. `updates[0]: post, INVESTIGATING, notifies every subscriber`.
 */
export function entryHeading(entry: EntryChange): string {
  const what =
    entry.kind === "edit"
      ? "changed in place (notifies nobody)"
      : entry.notify
        ? "posted, and sent to every subscriber"
        : "posted (notifies nobody)";
  const when = entry.at === undefined ? "" : `, dated ${entry.at}`;
  return `updates[${entry.index}] ${what}: ${entry.status}${when}`;
}

/**
 * A message's lines as customers read it: the line breaks that end it show nothing on the
 * status page, so they are not shown as empty lines (a YAML block `|` always ends with one).
 */
export function shownLines(message: string): string[] {
  return message.replace(/\n+$/, "").split("\n");
}
