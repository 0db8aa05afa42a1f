import { type Document, isMap, isNode, isPair, isScalar, type Node, type Pair } from "yaml";

type Path = readonly PropertyKey[];

/** Offset of the node at `path`, or of its nearest ancestor that exists. */
export function offsetOfPath(document: Document, path: Path): number {
  for (let length = path.length; length >= 0; length--) {
    const node = nodeAt(document, path.slice(0, length));
    if (node?.range) return node.range[0];
  }
  return document.range?.[0] ?? 0;
}

/** Offset of the key `key` in the mapping at `path`, for problems about the key itself. */
export function offsetOfKey(document: Document, path: Path, key: string): number {
  const map = nodeAt(document, path);
  if (isMap(map)) {
    const pair = map.items.find((item: Pair) => keyText(item.key) === key);
    if (pair && isNode(pair.key) && pair.key.range) return pair.key.range[0];
  }
  return offsetOfPath(document, path);
}

/** Whether the mapping at `path` spells out `key` (as opposed to it being defaulted). */
export function hasKey(document: Document, path: Path, key: string): boolean {
  const map = nodeAt(document, path);
  return isMap(map) && map.items.some((item: Pair) => keyText(item.key) === key);
}

function nodeAt(document: Document, path: Path): Node | undefined {
  let node: unknown = document.contents;
  for (const segment of path) {
    if (isMap(node)) {
      node = node.items.find((item: Pair) => keyText(item.key) === String(segment))?.value;
    } else if (isNode(node) && "items" in node && Array.isArray(node.items)) {
      const item: unknown = node.items[Number(segment)];
      node = isPair(item) ? item.value : item;
    } else {
      return undefined;
    }
  }
  return isNode(node) ? node : undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === "string" ? key : undefined;
}
