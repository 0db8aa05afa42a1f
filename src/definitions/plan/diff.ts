import type { LoadedDefinition } from "../parse-file";
import { compareText } from "../problem";
import type { DefinitionService, IncidentDefinition } from "../schema";
import type { FieldChange, IncidentChange, ListChanges, PlanField, ServiceChanges } from "./types";

const COMPARED_FIELDS: readonly PlanField[] = [
  "id",
  "name",
  "severity",
  "status",
  "duration",
  "onRemove",
  "reopen",
  "reason",
];

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
  let unchanged = 0;
  for (const [resource, current] of after) {
    const previous = before.get(resource);
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
  for (const [resource, previous] of before) {
    if (after.has(resource)) continue;
    changes.push({
      kind: "remove",
      resource,
      incidentId: previous.definition.id,
      file: previous.file,
      before: previous.definition,
      onRemove: previous.definition.onRemove,
    });
  }
  changes.sort((a, b) => compareText(a.resource, b.resource));
  return { changes, unchanged };
}

function compare(
  before: IncidentDefinition,
  after: IncidentDefinition,
):
  | Pick<
      Extract<IncidentChange, { kind: "update" }>,
      "replace" | "fields" | "services" | "evidence"
    >
  | undefined {
  const fields: FieldChange[] = [];
  for (const field of COMPARED_FIELDS) {
    const old = show(before[field]);
    const now = show(after[field]);
    if (old !== now) fields.push({ field, before: old, after: now });
  }
  const services = compareServices(before.services, after.services);
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
  return { replace: before.id !== after.id, fields, services, evidence };
}

function compareServices(
  before: readonly DefinitionService[],
  after: readonly DefinitionService[],
): ServiceChanges {
  const old = new Map(before.map((service) => [service.id, service]));
  const now = new Map(after.map((service) => [service.id, service]));
  const renamed: ServiceChanges["renamed"][number][] = [];
  for (const service of after) {
    const previous = old.get(service.id);
    if (previous && previous.name !== service.name) {
      renamed.push({ id: service.id, before: previous.name, after: service.name });
    }
  }
  return {
    added: after.filter((service) => !old.has(service.id)),
    removed: before.filter((service) => !now.has(service.id)),
    renamed,
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
