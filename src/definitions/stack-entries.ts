import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseAllDocuments } from "yaml";
import { editDistance } from "../suggest";
import type { LoadedDefinition } from "./parsed-file";
import { PositionIndex } from "./position";
import { parseStackName, type StackRef, sameStack } from "./stack-name";

/**
 * A `stacks` entry that names no stack anyone knows of: a warning, since the definition is
 * then declared on no stack by it (a typo takes the incident out of prod unseen). Located at
 * the entry, like a problem.
 */
export interface StackEntryWarning {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: "unknown-stack";
  readonly message: string;
}

/** The stacks a project knows of, and where they were found, for the warnings' words. */
export interface KnownStacks {
  readonly stacks: readonly StackRef[];
  /** `the Pulumi.<stack>.yaml files`, `the backend's stacks`, joined with "or". */
  readonly sources: readonly string[];
}

/** The stack config files beside `Pulumi.yaml`: `Pulumi.prod.yaml` is the stack `prod` of the project. */
export function stackFilesOf(projectDir: string, project?: string): StackRef[] {
  let names: string[];
  try {
    names = readdirSync(projectDir);
  } catch {
    return [];
  }
  return names
    .map((name) => /^Pulumi\.(.+)\.ya?ml$/.exec(name)?.[1])
    .filter((stack): stack is string => stack !== undefined)
    .map((stack) => (project === undefined ? { stack } : { project, stack }));
}

/**
 * The project directory of a definitions directory: the nearest folder at or above it that
 * holds `Pulumi.yaml`, with the project's name; `undefined` outside a project.
 */
export function projectOf(definitionsDir: string): { dir: string; name?: string } | undefined {
  for (let dir = resolve(definitionsDir); ; dir = dirname(dir)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, "Pulumi.yaml"), "utf8");
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const name = /^name:\s*["']?([^"'#\s]+)/m.exec(text)?.[1];
      return name === undefined ? { dir } : { dir, name };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Every `stacks` entry of the definitions that can be none of the known stacks, with the
 * closest known one when it looks like a typo. Nothing is said when no stack is known: there
 * is nothing to compare with. `read` gives a file's text, to point at the entry itself.
 */
export function unknownStackEntries(
  definitions: readonly LoadedDefinition[],
  known: KnownStacks,
  read: (file: string) => string = (file) => readFileSync(file, "utf8"),
): StackEntryWarning[] {
  if (known.stacks.length === 0) return [];
  const warnings: StackEntryWarning[] = [];
  for (const loaded of definitions) {
    (loaded.definition.stacks ?? []).forEach((entry, index) => {
      if (known.stacks.some((stack) => sameStack(entry, stack))) return;
      const at = entryPosition(loaded, index, read) ?? loaded.at;
      warnings.push({
        file: loaded.file,
        line: at.line,
        column: at.column,
        code: "unknown-stack",
        message: unknownMessage(entry, known),
      });
    });
  }
  return warnings;
}

function unknownMessage(entry: string, known: KnownStacks): string {
  const parts = entry.split("/").length;
  const names = [...new Set(known.stacks.map((stack) => written(stack, parts)))].sort();
  const closest = closestOf(entry, names);
  return `stacks entry "${entry}" is no stack of ${known.sources.join(" or ")}, so no stack declares the incident by it; the closest is "${closest}"`;
}

/** The name nearest to `entry` by edit distance, the first in order on a tie. */
function closestOf(entry: string, names: readonly string[]): string {
  let best = names[0] ?? "";
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const distance = editDistance(entry.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** A known stack written with as many parts as an entry has, where it knows them. */
function written(stack: StackRef, parts: number): string {
  if (parts >= 3 && stack.organization !== undefined && stack.project !== undefined) {
    return `${stack.organization}/${stack.project}/${stack.stack}`;
  }
  if (parts >= 2 && stack.organization !== undefined) return `${stack.organization}/${stack.stack}`;
  return stack.stack;
}

/** Where the `index`th `stacks` entry of a definition is written; read only for a warning. */
function entryPosition(
  loaded: LoadedDefinition,
  index: number,
  read: (file: string) => string,
): { line: number; column: number } | undefined {
  try {
    const text = read(loaded.file);
    const document = parseAllDocuments(text)[loaded.document - 1];
    if (document === undefined || !("getIn" in document)) return undefined;
    const node = document.getIn(["stacks", index], true) as { range?: [number, number] } | null;
    return node?.range ? new PositionIndex(text).at(node.range[0]) : undefined;
  } catch {
    return undefined;
  }
}

/** The stacks of qualified names (`organization/project/stack`), as `pulumi stack ls -Q` lists them. */
export function backendStacks(names: readonly string[]): StackRef[] {
  return names.map(parseStackName);
}
