import { Composer, CST, type Document, Lexer, Parser, type YAMLError } from "yaml";
import { escapeLine } from "../api/schemas";
import { scanDocument, type UnclosedOpener } from "./cst-scan";
import type { Report } from "./document-value";
import { MAX_DEPTH, MAX_DOCUMENTS } from "./limits";

/** A composed YAML document and its 1-based number in the file. */
export interface ComposedDocument {
  readonly document: Document.Parsed;
  readonly number: number;
  /** Whether yaml found errors in it (already reported); its value is then not read. */
  readonly broken: boolean;
  /** Whether it holds a tag outside the core schema (already reported). */
  readonly warned: boolean;
}

export interface YamlDocuments {
  readonly documents: ComposedDocument[];
  /** Documents written but not composed, because a limit was reached in them. */
  readonly skipped: number;
}

/**
 * YAML 1.2 core schema only (1.1 tags surface as unsupported); repeated keys are left to
 * `documentValue`, in linear time; nothing logged.
 */
const OPTIONS = {
  version: "1.2",
  schema: "core",
  resolveKnownTags: false,
  uniqueKeys: false,
  logLevel: "silent",
  prettyErrors: false,
} as const;

/**
 * A file's documents within the limits (`MAX_DOCUMENTS`, `MAX_DEPTH`, where it starts), syntax
 * errors and tag warnings as problems, an unclosed bracket at its opener.
 */
export function readYamlDocuments(text: string, report: Report): YamlDocuments {
  const composer = new Composer(OPTIONS);
  const composed: Document.Parsed[] = [];
  const numbers: number[] = [];
  const unclosed: UnclosedOpener[] = [];
  let count = 0;
  let skipped = 0;
  const tooDeep = (offset: number) => {
    report(
      offset,
      "too-deep",
      `lists and mappings are nested more than ${MAX_DEPTH} levels deep here (a definition needs 3); the file is not checked past this point`,
    );
    skipped++;
  };
  for (const token of syntaxTokens(text, tooDeep)) {
    if (token.type === "document") {
      count++;
      if (count > MAX_DOCUMENTS) {
        report(
          token.offset,
          "too-many-documents",
          `the file holds more than ${MAX_DOCUMENTS.toLocaleString("en-US")} YAML documents; the rest of it from here is not checked: split it into several files`,
        );
        skipped++;
        break;
      }
      // Measured while parsing already; the tree of a whole document is measured again so
      // that nothing deeper reaches the composer, whatever yaml's parser keeps open.
      const scan = scanDocument(token, MAX_DEPTH);
      if (scan.tooDeepAt !== undefined) {
        tooDeep(scan.tooDeepAt);
        break;
      }
      for (const opener of scan.unclosed) unclosed.push(opener);
      numbers.push(count);
    }
    for (const document of composer.next(token)) composed.push(document);
  }
  for (const document of composer.end()) composed.push(document);
  const errors = new SyntaxErrors(text, unclosed, report);
  if (composed.length === 0) {
    const stream = composer.streamInfo();
    errors.reportAll(stream.errors, stream.warnings);
  }
  const documents = composed.map((document, index) => {
    errors.reportAll(document.errors, document.warnings);
    return {
      document,
      number: numbers[index] ?? index + 1,
      broken: document.errors.length > 0,
      warned: document.warnings.some(isTagWarning),
    };
  });
  return { documents, skipped };
}

/**
 * yaml's tokens one lexeme at a time, so nesting is watched as it is read (yaml's parser builds
 * a whole document first): past `MAX_DEPTH` it stops, and `tooDeep` gets where.
 */
function* syntaxTokens(
  text: string,
  tooDeep: (offset: number) => void,
): Generator<CST.Token, void> {
  const parser = new Parser();
  for (const lexeme of new Lexer().lex(text)) {
    yield* parser.next(lexeme);
    // The stack holds the document, the open collections and at most one other token.
    if (parser.stack.length > MAX_DEPTH) {
      const open = parser.stack.filter(CST.isCollection);
      if (open.length > MAX_DEPTH) {
        tooDeep(open[MAX_DEPTH]!.offset);
        return;
      }
    }
  }
  yield* parser.end();
}

/** Turns yaml's errors and warnings into problems, pointing unclosed openers out. */
class SyntaxErrors {
  readonly #reported = new Set<number>();
  /** Unclosed openers by the closing character they lack, each list in file order. */
  readonly #openers: Readonly<Record<"quote" | "]" | "}", UnclosedOpener[]>> = {
    quote: [],
    "]": [],
    "}": [],
  };

  constructor(
    private readonly text: string,
    unclosed: readonly UnclosedOpener[],
    private readonly report: Report,
  ) {
    for (const opener of unclosed) {
      const kind = opener.opener === "[" ? "]" : opener.opener === "{" ? "}" : "quote";
      this.#openers[kind].push(opener);
    }
  }

  reportAll(errors: readonly YAMLError[], warnings: readonly YAMLError[]): void {
    for (const error of errors) this.error(error);
    for (const warning of warnings) this.warning(warning);
  }

  private error(error: YAMLError): void {
    const [offset] = error.pos;
    const closing = /end with an? ([\]}])/.exec(error.message)?.[1];
    const quote = error.code === "MISSING_CHAR" && /quote/i.test(error.message);
    const kind = quote ? "quote" : closing === "]" || closing === "}" ? closing : undefined;
    const opener = kind === undefined ? undefined : lastAtOrBefore(this.#openers[kind], offset);
    if (opener === undefined) {
      this.report(offset, "yaml-syntax", `YAML syntax error: ${sentence(error.message)}`);
      return;
    }
    // One problem per opener: later errors about it are its consequences.
    if (this.#reported.has(opener.offset)) return;
    this.#reported.add(opener.offset);
    this.report(
      opener.offset,
      "yaml-syntax",
      quote
        ? "YAML syntax error: the quoted text that starts here has no closing quote"
        : `YAML syntax error: the ${opener.opener} that opens here is never closed; ${sentence(error.message)}`,
    );
  }

  /**
   * A tag yaml could not apply changes a value's meaning, so it is a problem; yaml's other
   * warnings are about style, and are not reported.
   */
  private warning(warning: YAMLError): void {
    if (!isTagWarning(warning)) return;
    const [from, to] = warning.pos;
    const tag = escapeLine(this.text.slice(from, to).trim()) || "here";
    this.report(
      from,
      "unsupported-tag",
      `the tag ${tag} is not allowed here; definitions use plain YAML values (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map, each on a value of its kind)`,
    );
  }
}

/** The last opener at or before `offset`, by binary search of a list in file order. */
function lastAtOrBefore(
  openers: readonly UnclosedOpener[],
  offset: number,
): UnclosedOpener | undefined {
  let low = 0;
  let high = openers.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (openers[middle]!.offset <= offset) low = middle + 1;
    else high = middle;
  }
  return openers[low - 1];
}

function isTagWarning(warning: YAMLError): boolean {
  return warning.code === "TAG_RESOLVE_FAILED" || warning.code === "BAD_COLLECTION_TYPE";
}

/** yaml's messages start with a capital and may end without a period; keep them as one clause. */
function sentence(message: string): string {
  const firstLine = message.split("\n")[0] ?? message;
  return firstLine.charAt(0).toLowerCase() + firstLine.slice(1).replace(/\.$/, "");
}
