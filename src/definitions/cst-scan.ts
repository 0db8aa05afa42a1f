import type { CST } from "yaml";

/** An opening `[`, `{` or quote whose closing counterpart the parser never found. */
export interface UnclosedOpener {
  readonly offset: number;
  readonly opener: "[" | "{" | '"' | "'";
}

export interface DocumentScan {
  /** Where the first list or mapping nested deeper than allowed starts, if any. */
  readonly tooDeepAt: number | undefined;
  /** Unclosed flow collections and quoted scalars, in the order they open. */
  readonly unclosed: UnclosedOpener[];
}

/**
 * Walks one document's syntax tree before it is composed, without recursion: nesting is
 * measured here first, and unclosed brackets and quotes found where they were typed.
 */
export function scanDocument(document: CST.Document, maxDepth: number): DocumentScan {
  const unclosed: UnclosedOpener[] = [];
  // Children are pushed in reverse so they pop in document order.
  const stack: { token: CST.Token; depth: number }[] = [];
  if (document.value) stack.push({ token: document.value, depth: 1 });
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    switch (token.type) {
      case "block-map":
      case "block-seq":
      case "flow-collection": {
        if (depth > maxDepth) return { tooDeepAt: token.offset, unclosed };
        if (token.type === "flow-collection" && !isClosed(token)) {
          unclosed.push({
            offset: token.start.offset,
            opener: token.start.source === "{" ? "{" : "[",
          });
        }
        const items: CST.CollectionItem[] = token.items;
        for (let index = items.length - 1; index >= 0; index--) {
          const item = items[index]!;
          if (item.value) stack.push({ token: item.value, depth: depth + 1 });
          if (item.key) stack.push({ token: item.key, depth: depth + 1 });
        }
        break;
      }
      case "double-quoted-scalar":
      case "single-quoted-scalar":
        if (!quoteIsClosed(token.source)) {
          unclosed.push({
            offset: token.offset,
            opener: token.source.charAt(0) === '"' ? '"' : "'",
          });
        }
        break;
      default:
        break;
    }
  }
  return { tooDeepAt: undefined, unclosed };
}

function isClosed(collection: CST.FlowCollection): boolean {
  const closing = collection.start.source === "{" ? "flow-map-end" : "flow-seq-end";
  return collection.end.some((token) => token.type === closing);
}

/** Whether a quoted scalar's source ends with its closing quote (escapes considered). */
function quoteIsClosed(source: string): boolean {
  const quote = source.charAt(0);
  for (let index = 1; index < source.length; index++) {
    const character = source.charAt(index);
    if (quote === '"' && character === "\\") index++;
    else if (character === quote) {
      if (quote === "'" && source.charAt(index + 1) === "'") index++;
      else return true;
    }
  }
  return false;
}
