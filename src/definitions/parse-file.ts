import { type Alias, type Document, isAlias, parseAllDocuments, visit, type YAMLError } from "yaml";
import { describeIssue } from "./issue-message";
import { parseDefinitionFileFast } from "./parse-fast";
import { type Position, PositionIndex } from "./position";
import type { DefinitionProblem, ProblemCode } from "./problem";
import { IncidentDefinition } from "./schema";
import { hasKey, offsetOfKey, offsetOfPath } from "./yaml-locate";

/** A definitions file by its path and content; the path is only used in messages. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

/** A valid definition and where it was written. */
export interface LoadedDefinition {
  readonly definition: IncidentDefinition;
  readonly file: string;
  /** 1-based index of the YAML document in the file. */
  readonly document: number;
  /** Where the definition starts. */
  readonly at: Position;
  /** Where the `id` value is. */
  readonly idAt: Position;
  /** Where `resource` is written, or `undefined` when it defaults to the id. */
  readonly resourceAt: Position | undefined;
}

export interface ParsedFile {
  readonly definitions: LoadedDefinition[];
  readonly problems: DefinitionProblem[];
}

/**
 * Parses every YAML document of one file into a definition, collecting every problem
 * rather than stopping at the first. Plainly written valid files take a faster parser
 * (see parse-fast.ts); the result is the same either way.
 */
export function parseDefinitionFile(file: SourceFile): ParsedFile {
  return parseDefinitionFileFast(file) ?? parseDefinitionFileFully(file);
}

/** The full path with `yaml`: the authority for every problem and every position. */
export function parseDefinitionFileFully(file: SourceFile): ParsedFile {
  const positions = new PositionIndex(file.text);
  const definitions: LoadedDefinition[] = [];
  const problems: DefinitionProblem[] = [];
  const report = (offset: number, code: ProblemCode, message: string) =>
    problems.push({ file: file.path, ...positions.at(offset), code, message });

  const documents = parseAllDocuments(file.text, { prettyErrors: false });
  let count = 0;
  documents.forEach((document, index) => {
    if (document.errors.length > 0) {
      for (const error of document.errors) {
        const quoteStart = unclosedQuoteStart(document, error);
        if (error.code === "DUPLICATE_KEY") {
          const key = /^[^:\n]*/.exec(file.text.slice(error.pos[0]))?.[0].trim() ?? "";
          report(
            error.pos[0],
            "yaml-syntax",
            `YAML syntax error: the key ${key === "" ? "" : `"${key}" `}appears twice in this mapping; keep one`,
          );
        } else if (quoteStart === undefined) {
          report(error.pos[0], "yaml-syntax", `YAML syntax error: ${sentence(error.message)}`);
        } else {
          report(
            quoteStart,
            "yaml-syntax",
            "YAML syntax error: the quoted text that starts here has no closing quote",
          );
        }
      }
      return;
    }
    if (isEmptyDocument(document)) return;
    count++;
    let value: unknown;
    try {
      value = document.toJS();
    } catch (error) {
      report(
        offsetOfBrokenAlias(document) ?? document.range[0],
        "yaml-syntax",
        `YAML error: ${sentence(error instanceof Error ? error.message : String(error))}`,
      );
      return;
    }
    const result = IncidentDefinition.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) {
        for (const text of describeIssue(issue, value)) {
          const offset =
            text.key === undefined
              ? offsetOfPath(document, text.path)
              : offsetOfKey(document, text.path, text.key);
          report(offset, text.code, text.message);
        }
      }
      return;
    }
    definitions.push({
      definition: result.data,
      file: file.path,
      document: index + 1,
      at: positions.at(document.contents?.range?.[0] ?? document.range[0]),
      idAt: positions.at(offsetOfPath(document, ["id"])),
      resourceAt: hasKey(document, [], "resource")
        ? positions.at(offsetOfPath(document, ["resource"]))
        : undefined,
    });
  });

  if (count === 0 && problems.length === 0) {
    report(0, "empty-file", "the file holds no incident definition; add one or delete the file");
  }
  return { definitions, problems };
}

function isEmptyDocument(document: Document): boolean {
  const contents = document.contents as { value?: unknown } | null;
  return contents === null || (contents.value === null && !("items" in contents));
}

/**
 * yaml reports a missing closing quote where the file ends; the opening quote is where
 * the person has to look.
 */
function unclosedQuoteStart(document: Document, error: YAMLError): number | undefined {
  if (error.code !== "MISSING_CHAR" || !/quote/i.test(error.message)) return undefined;
  let start: number | undefined;
  visit(document, {
    Scalar(_key, node) {
      const quoted = node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE";
      if (quoted && node.range && node.range[0] <= error.pos[0] && node.range[2] >= error.pos[0]) {
        start = node.range[0];
      }
    },
  });
  return start;
}

/** yaml throws on an alias to an anchor defined later or not at all; find that alias. */
function offsetOfBrokenAlias(document: Document): number | undefined {
  let offset: number | undefined;
  visit(document, {
    Alias(_key, node: Alias) {
      if (isAlias(node) && node.resolve(document) === undefined && node.range) {
        offset = node.range[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return offset;
}

/** yaml's messages start with a capital and may end without a period; keep them as one clause. */
function sentence(message: string): string {
  const firstLine = message.split("\n")[0] ?? message;
  return firstLine.charAt(0).toLowerCase() + firstLine.slice(1).replace(/\.$/, "");
}
