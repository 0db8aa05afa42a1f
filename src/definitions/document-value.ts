import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  type YAMLMap,
} from "yaml";
import { quoteText } from "../api/schemas";
import type { Message } from "./file-problems";
import { MAX_ALIAS_NODES } from "./limits";
import type { ProblemCode } from "./problem";

/** Reports a problem at a character offset of the file. */
export type Report = (offset: number, code: ProblemCode, message: Message) => void;

/** How many nodes aliases have added so far in one file; shared by its documents. */
export interface AliasBudget {
  used: number;
}

/** Where each value of a document was written, for pointing problems at it. */
export interface ValueIndex {
  /** The pair that gives each key its value (the last, when a key is repeated). */
  readonly pairs: WeakMap<YAMLMap, Map<string, Pair>>;
  /** The node each alias repeats. */
  readonly aliases: WeakMap<Alias, Node>;
}

export interface DocumentValue {
  readonly value: unknown;
  readonly index: ValueIndex;
}

interface Anchor {
  open: boolean;
  value: unknown;
  size: number;
  readonly node: Node;
}

interface Converted {
  readonly value: unknown;
  /** Nodes in the value once aliases are expanded: what validating it will cost. */
  readonly size: number;
}

/**
 * A document's value as `toJS()` gives it, in one linear pass (yaml's aliases and repeated keys
 * are quadratic), reporting key and alias problems; `undefined` when an alias spoils it.
 */
export function documentValue(
  document: Document.Parsed,
  budget: AliasBudget,
  report: Report,
): DocumentValue | undefined {
  const index: ValueIndex = { pairs: new WeakMap(), aliases: new WeakMap() };
  const anchors = new Map<string, Anchor>();
  let broken = false;

  const convert = (node: Node | null): Converted => {
    if (broken || node === null) return { value: null, size: 1 };
    if (isAlias(node)) return resolveAlias(node);
    const anchor = node.anchor ? open(node.anchor, node) : undefined;
    const converted = isMap(node)
      ? convertMap(node)
      : isSeq(node)
        ? convertSeq(node.items as (Node | null)[])
        : { value: isScalar(node) ? node.value : null, size: 1 };
    if (anchor) Object.assign(anchor, { open: false, ...converted });
    return converted;
  };

  const open = (name: string, node: Node): Anchor => {
    const anchor: Anchor = { open: true, value: undefined, size: 0, node };
    anchors.set(name, anchor);
    return anchor;
  };

  const resolveAlias = (alias: Alias): Converted => {
    const offset = alias.range?.[0] ?? 0;
    const anchor = anchors.get(alias.source);
    if (anchor === undefined || anchor.open) {
      broken = true;
      report(
        offset,
        "yaml-syntax",
        anchor === undefined
          ? `YAML error: the alias *${alias.source} names no anchor before it; write &${alias.source} on an earlier value, or the value itself`
          : `YAML error: the alias *${alias.source} is inside the value anchored &${alias.source}, which would repeat it without end`,
      );
      return { value: null, size: 1 };
    }
    index.aliases.set(alias, anchor.node);
    const crossing = budget.used <= MAX_ALIAS_NODES;
    budget.used += anchor.size;
    if (budget.used > MAX_ALIAS_NODES) {
      // Reported once, at the alias that crosses; later documents that use aliases are
      // not checked, as that problem says.
      broken = true;
      if (crossing) {
        report(
          offset,
          "too-many-aliases",
          `aliases in this file expand to more than ${MAX_ALIAS_NODES.toLocaleString("en-US")} values; from this document on, documents with aliases are not checked: write the values out or use fewer aliases`,
        );
      }
      return { value: null, size: 1 };
    }
    return { value: anchor.value, size: anchor.size };
  };

  const convertMap = (map: YAMLMap): Converted => {
    // No prototype: a key such as "__proto__" stays an ordinary key.
    const value: Record<string, unknown> = Object.create(null);
    const pairs = new Map<string, Pair>();
    index.pairs.set(map, pairs);
    let size = 1;
    for (const pair of map.items as Pair<Node | null, Node | null>[]) {
      if (broken) break;
      const key = convert(pair.key);
      const converted = convert(pair.value);
      size += key.size + converted.size;
      const keyOffset = pair.key?.range?.[0] ?? map.range?.[0] ?? 0;
      if (typeof key.value === "object" && key.value !== null) {
        report(
          keyOffset,
          "invalid-type",
          `a key must be text, not ${Array.isArray(key.value) ? "a list" : "a mapping"}`,
        );
        continue;
      }
      const name = key.value === null ? "" : String(key.value);
      if (pairs.has(name)) {
        report(
          keyOffset,
          "yaml-syntax",
          `YAML syntax error: the key ${name === "" ? "" : `${quoteText(name)} `}appears twice in this mapping; keep one`,
        );
      }
      pairs.set(name, pair);
      value[name] = converted.value;
    }
    return { value, size };
  };

  const convertSeq = (items: readonly (Node | null)[]): Converted => {
    const value: unknown[] = [];
    let size = 1;
    for (const item of items) {
      if (broken) break;
      const converted = convert(item);
      size += converted.size;
      value.push(converted.value);
    }
    return { value, size };
  };

  const { value } = convert(document.contents);
  return broken ? undefined : { value, index };
}
