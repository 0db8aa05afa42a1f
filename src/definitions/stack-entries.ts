import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { editDistance } from "../suggest";
import { selfManagedNameProblem } from "./backend";
import type { LoadedDefinition } from "./parsed-file";
import { PositionIndex } from "./position";
import type { DefinitionProblem } from "./problem";
import { parseStackName, type StackRef, sameStack } from "./stack-name";

/** The stacks a project knows of, and where they were found, for the problems' words. */
export interface KnownStacks {
  readonly stacks: readonly StackRef[];
  /** `the Pulumi.<stack>.yaml files beside Pulumi.yaml`, `the backend's stacks`, joined with "or". */
  readonly sources: readonly string[];
  /**
   * The project's backend as a person reads it, when it is self-managed: a name with another
   * organization than `organization` can be none of its stacks.
   */
  readonly selfManaged?: string | undefined;
}

/** A Pulumi project: its directory, its name and the backend `Pulumi.yaml` names, if any. */
export interface ProjectInfo {
  readonly dir: string;
  readonly name?: string;
  /** `backend.url` of `Pulumi.yaml`. */
  readonly backendUrl?: string;
}

/**
 * The stack config files beside `Pulumi.yaml`: `Pulumi.prod.yaml` is the stack `prod` of the
 * project, in `organization` when the backend is known to keep them there.
 */
export function stackFilesOf(
  projectDir: string,
  project?: string,
  organization?: string,
): StackRef[] {
  let names: string[];
  try {
    names = readdirSync(projectDir);
  } catch {
    return [];
  }
  return names
    .map((name) => /^Pulumi\.(.+)\.ya?ml$/.exec(name)?.[1])
    .filter((stack): stack is string => stack !== undefined)
    .map((stack) => ({
      ...(organization === undefined ? {} : { organization }),
      ...(project === undefined ? {} : { project }),
      stack,
    }));
}

/**
 * The project of a definitions directory: the nearest folder at or above it that holds
 * `Pulumi.yaml`, with the project's name and backend; `undefined` outside a project.
 */
export function projectOf(definitionsDir: string): ProjectInfo | undefined {
  for (let dir = resolve(definitionsDir); ; dir = dirname(dir)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, "Pulumi.yaml"), "utf8");
    } catch {
      text = undefined;
    }
    if (text !== undefined) return { dir, ...projectFields(text) };
    if (dirname(dir) === dir) return undefined;
  }
}

/** `name` and `backend.url` of a `Pulumi.yaml`; what cannot be read is left out. */
function projectFields(text: string): { name?: string; backendUrl?: string } {
  let document: unknown;
  try {
    document = parse(text);
  } catch {
    // Pulumi itself reports a broken project file when the stack runs.
    return {};
  }
  const fields = (document ?? {}) as { name?: unknown; backend?: { url?: unknown } | null };
  return {
    ...(typeof fields.name === "string" && fields.name !== "" ? { name: fields.name } : {}),
    ...(typeof fields.backend?.url === "string" && fields.backend.url !== ""
      ? { backendUrl: fields.backend.url }
      : {}),
  };
}

/**
 * Every `stacks` entry of the definitions that can be none of the known stacks, as a problem at
 * the entry with the stack it is most likely a typo of: an entry that names no stack declares
 * the incident nowhere by it, and takes it off the stack meant. Nothing is said when no stack is
 * known: there is nothing to compare with. `read` gives a file's text, to point at the entry.
 */
export function unknownStackEntries(
  definitions: readonly LoadedDefinition[],
  known: KnownStacks,
  read: (file: string) => string = (file) => readFileSync(file, "utf8"),
): DefinitionProblem[] {
  if (known.stacks.length === 0) return [];
  const problems: DefinitionProblem[] = [];
  for (const loaded of definitions) {
    (loaded.definition.stacks ?? []).forEach((entry, index) => {
      const message = entryProblem(entry, known);
      if (message === undefined) return;
      const at = entryPosition(loaded, index, read) ?? loaded.at;
      problems.push({ file: loaded.file, ...at, code: "unknown-stack", message });
    });
  }
  return problems;
}

/** What is wrong with a `stacks` entry, or undefined when it names a known stack. */
function entryProblem(entry: string, known: KnownStacks): string | undefined {
  const selfManaged =
    known.selfManaged === undefined ? undefined : selfManagedNameProblem(entry, known.selfManaged);
  if (selfManaged !== undefined) return `stacks entry ${selfManaged}`;
  if (known.stacks.some((stack) => sameStack(entry, stack))) return undefined;
  const parts = entry.split("/").length;
  const names = [...new Set(known.stacks.map((stack) => written(stack, parts)))].sort();
  const closest = closestStack(entry, names);
  const hint =
    closest === undefined
      ? `the project's stacks are ${names.join(", ")}.`
      : `did you mean "${closest}"?`;
  return `stacks entry "${entry}" is no stack of ${known.sources.join(" or ")}: ${hint} An entry that names no stack declares the incident nowhere, and takes it off the stack meant.`;
}

/**
 * The known stack an entry is most likely a typo of. Stack names are short, and a swap of two
 * letters (`prdo`) counts two edits: up to half the name's length may differ.
 */
function closestStack(entry: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(entry.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  const limit = Math.max(2, Math.floor(entry.length / 2));
  return best !== undefined && best.distance <= limit ? best.name : undefined;
}

/** A known stack written with as many parts as an entry has, where it knows them. */
function written(stack: StackRef, parts: number): string {
  if (parts >= 3 && stack.organization !== undefined && stack.project !== undefined) {
    return `${stack.organization}/${stack.project}/${stack.stack}`;
  }
  if (parts >= 2 && stack.organization !== undefined) return `${stack.organization}/${stack.stack}`;
  return stack.stack;
}

/** Where the `index`th `stacks` entry of a definition is written; read only for a problem. */
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
