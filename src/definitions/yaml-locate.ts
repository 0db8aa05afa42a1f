import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node } from "yaml";
import type { ValueIndex } from "./document-value";

type Path = readonly PropertyKey[];

/**
 * Finds where a value of a document is written, through the indexes built while
 * converting it: each step of a path is one lookup, and an alias leads to the node it
 * repeats (where that value is written).
 */
export class Locator {
  constructor(
    private readonly document: Document.Parsed,
    private readonly index: ValueIndex,
    private readonly text: string,
  ) {}

  /** Offset of the node at `path`, or of its nearest ancestor that exists. */
  offsetOfPath(path: Path): number {
    let offset = this.document.contents?.range?.[0] ?? this.document.range[0];
    let node: Node | undefined = this.resolve(this.document.contents);
    for (const segment of path) {
      node = this.child(node, segment);
      if (node?.range) offset = node.range[0];
      else break;
    }
    return offset;
  }

  /**
   * Where a described problem points (`describeIssue`): the character a rule refuses, else
   * the key the problem is about, else the value at its path.
   */
  offsetOfIssue(text: {
    readonly path: Path;
    readonly key?: string | undefined;
    readonly characterIndex?: number | undefined;
  }): number {
    if (text.characterIndex !== undefined) {
      return this.offsetOfCharacter(text.path, text.characterIndex);
    }
    return text.key === undefined
      ? this.offsetOfPath(text.path)
      : this.offsetOfKey(text.path, text.key);
  }

  /** Offset of the key `key` in the mapping at `path`, for problems about the key itself. */
  offsetOfKey(path: Path, key: string): number {
    const map = this.nodeAt(path);
    const pair = isMap(map) ? this.index.pairs.get(map)?.get(key) : undefined;
    const keyNode: unknown = pair?.key;
    if (isScalar(keyNode) && keyNode.range) return keyNode.range[0];
    return this.offsetOfPath(path);
  }

  /**
   * A plain scalar at `path` as written in the file (`0x1F`, `1e400`, `yes`), for messages
   * that quote what a person wrote rather than the value YAML made of it.
   */
  sourceOf(path: Path): string | undefined {
    const node = this.nodeAt(path);
    if (!isScalar(node) || node.type !== "PLAIN" || !node.range) return undefined;
    return this.text.slice(node.range[0], node.range[1]).trim();
  }

  /** Whether the mapping at `path` spells out `key` (as opposed to it being defaulted). */
  hasKey(path: Path, key: string): boolean {
    const map = this.nodeAt(path);
    return isMap(map) && this.index.pairs.get(map)?.has(key) === true;
  }

  /**
   * Where the character at `characterIndex` of the value at `path` is written in the source
   * (itself, an escape, or a folded line's start); else the value's start.
   */
  offsetOfCharacter(path: Path, characterIndex: number): number {
    const node = this.nodeAt(path);
    const start = this.offsetOfPath(path);
    if (!isScalar(node) || typeof node.value !== "string" || !node.range) return start;
    const codePoint = node.value.codePointAt(characterIndex);
    if (codePoint === undefined) return start;
    const [from, to] = node.range;
    const found =
      node.type === "QUOTE_DOUBLE"
        ? findInDoubleQuoted(this.text, from + 1, to, codePoint)
        : findLiteral(this.text, from, to, codePoint);
    return found ?? start;
  }

  private nodeAt(path: Path): Node | undefined {
    let node: Node | undefined = this.resolve(this.document.contents);
    for (const segment of path) {
      node = this.child(node, segment);
      if (node === undefined) return undefined;
    }
    return node;
  }

  private child(node: Node | undefined, segment: PropertyKey): Node | undefined {
    if (isMap(node)) {
      const value: unknown = this.index.pairs.get(node)?.get(String(segment))?.value;
      return this.resolve(value);
    }
    if (isSeq(node)) {
      const item: unknown = node.items[Number(segment)];
      return this.resolve(isPair(item) ? item.value : item);
    }
    return undefined;
  }

  private resolve(node: unknown): Node | undefined {
    if (isAlias(node)) return this.index.aliases.get(node);
    return isMap(node) || isSeq(node) || isScalar(node) ? node : undefined;
  }
}

function findLiteral(
  text: string,
  from: number,
  to: number,
  codePoint: number,
): number | undefined {
  for (let at = from; at < to; at++) if (text.codePointAt(at) === codePoint) return at;
  return undefined;
}

/** Single-character escapes of YAML double-quoted scalars and what they stand for. */
const ESCAPED: Readonly<Record<string, number>> = {
  "0": 0x00,
  a: 0x07,
  b: 0x08,
  t: 0x09,
  "\t": 0x09,
  n: 0x0a,
  v: 0x0b,
  f: 0x0c,
  r: 0x0d,
  e: 0x1b,
  " ": 0x20,
  N: 0x85,
  _: 0xa0,
  L: 0x2028,
  P: 0x2029,
};
const HEX_ESCAPE_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

function findInDoubleQuoted(
  text: string,
  from: number,
  to: number,
  codePoint: number,
): number | undefined {
  for (let at = from; at < to; at++) {
    let found: number | undefined = text.codePointAt(at);
    const start = at;
    if (found === 0x5c) {
      const kind = text.charAt(at + 1);
      const hexLength = HEX_ESCAPE_LENGTH[kind];
      if (hexLength === undefined) {
        found = ESCAPED[kind] ?? text.codePointAt(at + 1);
        at += 1;
      } else {
        found = Number.parseInt(text.slice(at + 2, at + 2 + hexLength), 16);
        at += 1 + hexLength;
      }
    }
    if (found === codePoint) return start;
  }
  return undefined;
}
