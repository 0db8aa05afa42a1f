import { isDeepStrictEqual } from "node:util";
import { Document, parse, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";
import { escapeHidden } from "../safe-text";
import { listedService, type WrittenDefinition } from "./written-definition";

/*
 * YAML written for people to keep in git (what `import` writes): a comment at the top, keys in
 * the order the docs show them, a message of several lines as a literal block, so it reads as
 * it shows on the status page. Every text is checked to read back exactly as given.
 */

/** A group of the catalog, with the comment above it. */
export interface CatalogGroup {
  readonly comment?: string | undefined;
  readonly services: readonly { readonly id: string; readonly name: string }[];
}

const OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/**
 * A comment of whole lines, `#` before each; an empty line is a lone `#`. A line break or other
 * hidden character in a line shows as an escape, so no text can end the comment.
 */
export function commentLines(lines: readonly string[]): string {
  return lines.map((line) => (line === "" ? "#\n" : `# ${escapeHidden(line)}\n`)).join("");
}

/** The text of one definition: the `header` comment, then the definition. */
export function definitionYaml(header: readonly string[], definition: WrittenDefinition): string {
  const value = {
    id: definition.id,
    name: definition.name,
    severity: definition.severity,
    ...(definition.status === undefined ? {} : { status: definition.status }),
    ...(definition.reopen === undefined ? {} : { reopen: definition.reopen }),
    services: definition.services.map(listedService),
    ...(definition.duration === undefined ? {} : { duration: definition.duration }),
    ...(definition.updates === undefined
      ? {}
      : {
          updates: definition.updates.map(({ status, message, at }) => ({
            status,
            message,
            ...(at === undefined ? {} : { at }),
          })),
        }),
  };
  const document = new Document(value);
  const services = document.get("services", true) as YAMLSeq<Scalar> | undefined;
  definition.services.forEach((service, index) => {
    const item = services?.items[index];
    if (service.named === "catalog" && item) item.comment = ` ${escapeHidden(service.name)}`;
  });
  definition.updates?.forEach((entry, index) => {
    const item = document.getIn(["updates", index], true) as YAMLMap;
    if (entry.comment !== undefined) item.commentBefore = ` ${escapeHidden(entry.comment)}`;
    const message = item.get("message", true) as Scalar;
    message.type = messageStyle(entry.message);
  });
  return checked(`${commentLines(header)}${document.toString(OPTIONS)}`, value);
}

/**
 * The services catalog: one mapping of id to name, its groups each under its comment. A service
 * in several groups is written in the first; a group left with none is not written.
 */
export function catalogYaml(header: readonly string[], groups: readonly CatalogGroup[]): string {
  const names = new Map<string, string>();
  const firsts = new Map<string, string>();
  for (const group of groups) {
    const added = group.services.filter((service) => !names.has(service.id));
    for (const service of added) names.set(service.id, service.name);
    const [first] = added;
    if (first && group.comment !== undefined) firsts.set(first.id, group.comment);
  }
  // Built with fromEntries, so an id such as __proto__ is a key like any other.
  const value: Record<string, string> = Object.fromEntries(names);
  const document = new Document(value);
  (document.contents as YAMLMap<Scalar, Scalar>).items.forEach((pair, index) => {
    const comment = firsts.get(String(pair.key.value));
    if (comment === undefined) return;
    pair.key.commentBefore = ` ${escapeHidden(comment)}`;
    // A blank line before each group but the first.
    if (index > 0) pair.key.spaceBefore = true;
  });
  return checked(`${commentLines(header)}${document.toString(OPTIONS)}`, value);
}

/**
 * A message of several lines as a literal block when that block reads back as the same text
 * (a line of spaces alone at the start cannot), else double-quoted, which always does.
 */
function messageStyle(message: string): Scalar.Type | undefined {
  if (!message.includes("\n")) return undefined;
  const trial = new Document({ message });
  (trial.get("message", true) as Scalar).type = "BLOCK_LITERAL";
  const back = parse(trial.toString(OPTIONS)) as { message?: unknown };
  return back.message === message ? "BLOCK_LITERAL" : "QUOTE_DOUBLE";
}

/** The text, once it reads back as the value it was written from: a mismatch is a bug. */
function checked(text: string, value: unknown): string {
  const back: unknown = parse(text);
  if (!isDeepStrictEqual(back, JSON.parse(JSON.stringify(value)))) {
    throw new Error("YAML written does not read back as the value it was written from");
  }
  return text;
}
