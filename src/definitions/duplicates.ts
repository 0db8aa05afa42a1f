import { quoteText } from "../api/schemas";
import type { DefinitionIdentity, LoadedDefinition } from "./parsed-file";
import type { Position } from "./position";
import { compareText, type DefinitionProblem } from "./problem";
import { openingKey } from "./same-incident";
import { sameStack } from "./stack-name";

/** Other places named in one duplicate's message; the rest are counted. */
const PLACES_NAMED = 3;

/**
 * Ids and resource names are unique across all files: each occurrence gets a problem naming
 * the others; a resource name defaulted from a clashing id is not reported twice.
 */
export function findDuplicates(identities: readonly DefinitionIdentity[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const group of groupBy(identities, (identity) => identity.id)) {
    const places = sortedPlaces(group, (identity) => identity.idAt ?? { line: 1, column: 1 });
    for (const identity of group) {
      problems.push({
        file: identity.file,
        ...(identity.idAt ?? { line: 1, column: 1 }),
        code: "duplicate-id",
        message: `incident id ${quoteText(identity.id ?? "")} is also defined at ${elsewhere(places, identity)}; each incident must be defined once`,
      });
    }
  }
  for (const group of groupBy(identities, (identity) => identity.resource)) {
    if (group.every((identity) => identity.id === group[0]?.id)) {
      if (group.every((identity) => identity.resourceAt === undefined)) continue;
    }
    const positionOf = (identity: DefinitionIdentity) =>
      identity.resourceAt ?? identity.idAt ?? { line: 1, column: 1 };
    const places = sortedPlaces(group, positionOf);
    for (const identity of group) {
      const origin = identity.resourceAt === undefined ? " (taken from its id)" : "";
      problems.push({
        file: identity.file,
        ...positionOf(identity),
        code: "duplicate-resource",
        message: `resource name ${quoteText(identity.resource ?? "")}${origin} is also used at ${elsewhere(places, identity)}; give each definition its own "resource"`,
      });
    }
  }
  return problems;
}

function groupBy(
  identities: readonly DefinitionIdentity[],
  keyOf: (identity: DefinitionIdentity) => string | undefined,
): DefinitionIdentity[][] {
  const groups = new Map<string, DefinitionIdentity[]>();
  for (const identity of identities) {
    const key = keyOf(identity);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(identity);
    else groups.set(key, [identity]);
  }
  return [...groups.values()].filter((group) => group.length > 1);
}

interface Place extends Position {
  readonly file: string;
  readonly identity: DefinitionIdentity;
}

/** A group's places in file order, sorted once for all of its messages. */
function sortedPlaces(
  group: readonly DefinitionIdentity[],
  positionOf: (identity: DefinitionIdentity) => Position,
): Place[] {
  return group
    .map((identity) => ({ file: identity.file, ...positionOf(identity), identity }))
    .sort((a, b) => compareText(a.file, b.file) || a.line - b.line || a.column - b.column);
}

/** `a.yaml:1:5, b.yaml:2:5` — the first few other places, and how many more there are. */
function elsewhere(places: readonly Place[], self: DefinitionIdentity): string {
  const named: string[] = [];
  for (const place of places) {
    if (named.length === PLACES_NAMED) break;
    if (place.identity !== self) named.push(`${place.file}:${place.line}:${place.column}`);
  }
  const more = places.length - 1 - named.length;
  return more > 0
    ? `${named.join(", ")} and ${more.toLocaleString("en-US")} more`
    : named.join(", ");
}

/**
 * A definition's `aliases` name resources it used to be, so each must be a name no other
 * definition uses now, nor one it uses itself, and claimed by one definition only: Pulumi
 * would otherwise join two resources into one.
 */
export function findAliasConflicts(loaded: readonly LoadedDefinition[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const resources = new Map<string, LoadedDefinition>();
  for (const item of loaded) resources.set(item.definition.resource, item);
  const claimedBy = new Map<string, LoadedDefinition>();
  for (const item of loaded) {
    for (const alias of item.definition.aliases ?? []) {
      const problem = (message: string) =>
        problems.push({ file: item.file, ...item.at, code: "alias-conflict", message });
      const current = resources.get(alias);
      if (current === item) {
        problem(
          `alias ${quoteText(alias)} is this definition's own resource name; list only the names it had before`,
        );
      } else if (current !== undefined) {
        problem(
          `alias ${quoteText(alias)} is the resource name of the definition at ${current.file}:${current.at.line}; a resource cannot be renamed to a name that is still in use`,
        );
      }
      const other = claimedBy.get(alias);
      if (other !== undefined && other !== item) {
        problem(
          `alias ${quoteText(alias)} is also an alias at ${other.file}:${other.at.line}; one old resource can become only one new one`,
        );
      } else {
        claimedBy.set(alias, item);
      }
    }
  }
  return problems;
}

/**
 * Two definitions without `id` that open the same incident (`openingKey`: the same name and
 * first message) are a pasted twin, which `up` would open twice and notify twice: each gets a
 * problem at its name, naming the others. Two declared in disjoint `stacks` are not twins.
 */
export function findTwins(loaded: readonly LoadedDefinition[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const groups = new Map<string, LoadedDefinition[]>();
  for (const item of loaded) {
    const key = openingKey(item.definition);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const item of group) {
      const twins = group.filter((other) => other !== item && shareAStack(item, other));
      if (twins.length === 0) continue;
      const places = twins
        .map((twin) => ({ file: twin.file, ...twin.nameAt }))
        .sort((a, b) => compareText(a.file, b.file) || a.line - b.line || a.column - b.column);
      const named = places.slice(0, PLACES_NAMED).map((at) => `${at.file}:${at.line}:${at.column}`);
      const more = places.length - named.length;
      problems.push({
        file: item.file,
        ...item.nameAt,
        code: "duplicate-incident",
        message: `incident ${quoteText(item.definition.name)} is also defined at ${named.join(", ")}${more > 0 ? ` and ${more.toLocaleString("en-US")} more` : ""} with the same name and first message and no id, so up would open it once for each and notify its subscribers each time; delete the copy, or, if they are different incidents, make each one's name or first message say which (a date, what is affected) or declare them in different stacks`,
      });
    }
  }
  return problems;
}

/** Whether two definitions are declared on some stack together (no `stacks`: on every one). */
function shareAStack(a: LoadedDefinition, b: LoadedDefinition): boolean {
  const [left, right] = [a.definition.stacks, b.definition.stacks];
  if (left === undefined || right === undefined) return true;
  return left.some((x) => right.some((y) => sameStack(x, y)));
}
