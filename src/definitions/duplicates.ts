import type { LoadedDefinition } from "./parse-file";
import type { Position } from "./position";
import { compareText, type DefinitionProblem } from "./problem";

/**
 * Incident ids and resource names must be unique across all files. Each occurrence
 * gets its own problem that names the others, so every file involved is flagged.
 * A resource name defaulted from an id is not reported again when the ids clash.
 */
export function findDuplicates(definitions: readonly LoadedDefinition[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const group of groupBy(definitions, (loaded) => loaded.definition.id)) {
    for (const loaded of group) {
      problems.push({
        file: loaded.file,
        ...loaded.idAt,
        code: "duplicate-id",
        message: `incident id "${loaded.definition.id}" is also defined at ${elsewhere(group, loaded, (other) => other.idAt)}; each incident must be defined once`,
      });
    }
  }
  for (const group of groupBy(definitions, (loaded) => loaded.definition.resource)) {
    if (group.every((loaded) => loaded.definition.id === group[0]?.definition.id)) {
      if (group.every((loaded) => loaded.resourceAt === undefined)) continue;
    }
    for (const loaded of group) {
      const at = loaded.resourceAt ?? loaded.idAt;
      const origin = loaded.resourceAt === undefined ? " (taken from its id)" : "";
      problems.push({
        file: loaded.file,
        ...at,
        code: "duplicate-resource",
        message: `resource name "${loaded.definition.resource}"${origin} is also used at ${elsewhere(group, loaded, (other) => other.resourceAt ?? other.idAt)}; give each definition its own "resource"`,
      });
    }
  }
  return problems;
}

function groupBy(
  definitions: readonly LoadedDefinition[],
  keyOf: (loaded: LoadedDefinition) => string,
): LoadedDefinition[][] {
  const groups = new Map<string, LoadedDefinition[]>();
  for (const loaded of definitions) {
    const key = keyOf(loaded);
    const group = groups.get(key);
    if (group) group.push(loaded);
    else groups.set(key, [loaded]);
  }
  return [...groups.values()].filter((group) => group.length > 1);
}

function elsewhere(
  group: readonly LoadedDefinition[],
  self: LoadedDefinition,
  positionOf: (loaded: LoadedDefinition) => Position,
): string {
  return group
    .filter((other) => other !== self)
    .map((other) => ({ file: other.file, ...positionOf(other) }))
    .sort((a, b) => compareText(a.file, b.file) || a.line - b.line || a.column - b.column)
    .map((at) => `${at.file}:${at.line}:${at.column}`)
    .join(", ");
}
