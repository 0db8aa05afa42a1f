import { marked, type Token, type Tokens } from "marked";
import { expect } from "vitest";

/** A GitHub-flavoured Markdown table read back from text. */
export interface MarkdownTable {
  headers: string[];
  rows: string[][];
}

function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/**
 * Finds every table (header row, delimiter row, body rows) and checks what a renderer
 * would: the delimiter has one `---` per header and every row has as many cells.
 */
export function parseMarkdownTables(markdown: string): MarkdownTable[] {
  const lines = markdown.split("\n");
  const tables: MarkdownTable[] = [];
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const head = lines[i]!;
    const delimiter = lines[i + 1]!;
    if (!head.startsWith("|") || !/^\|( *:?-{3,}:? *\|)+$/.test(delimiter.trim())) continue;
    const headers = cells(head);
    if (cells(delimiter).length !== headers.length) {
      throw new Error(`table at line ${i + 1}: delimiter row does not match the header`);
    }
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.startsWith("|"); j += 1) {
      const row = cells(lines[j]!);
      if (row.length !== headers.length) {
        throw new Error(
          `table at line ${i + 1}, row ${j + 1}: ${row.length} cells, expected ${headers.length}`,
        );
      }
      rows.push(row);
    }
    tables.push({ headers, rows });
    i = j - 1;
  }
  return tables;
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

const decode = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/** The text a reader sees in one cell, from marked's inline tokens. */
function shownText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === "html") {
        if (/^<br\s*\/?>$/i.test(token.raw)) return "\n";
        // Raw HTML in a cell is a bug: GitHub would drop or interpret it.
        throw new Error(`raw HTML in a table cell: ${token.raw}`);
      }
      // Code spans are literal: entities in them are shown as written.
      if (token.type === "codespan") return token.text;
      if ("tokens" in token && token.tokens) return shownText(token.tokens);
      return "text" in token ? decode(String(token.text)) : "";
    })
    .join("");
}

/**
 * Every table as a Markdown renderer (marked, GitHub-flavoured) reads it: headers and
 * cells as the text a reader sees, escapes resolved. Fails on raw HTML in a cell.
 */
export function renderedMarkdownTables(markdown: string): MarkdownTable[] {
  return marked
    .lexer(markdown)
    .filter((token): token is Tokens.Table => token.type === "table")
    .map((table) => ({
      headers: table.header.map((cell) => shownText(cell.tokens)),
      rows: table.rows.map((row) => row.map((cell) => shownText(cell.tokens))),
    }));
}

/** The tags incident-sync itself writes in Markdown; anything else came from the input. */
const OUR_TAGS = new Set([
  "p",
  "code",
  // A fenced block: an error document's lines, where nothing is read as Markdown.
  "pre",
  "strong",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "br",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "ul",
  "li",
  "blockquote",
  "details",
  "summary",
  "sub",
]);

const decodeAll = (html: string) =>
  decode(
    html
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
      .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16))),
  );

/**
 * Markdown rendered as GitHub renders comments (GFM, with its autolinks), checked for
 * anything live that the input could have made: a link, an image, a tag incident-sync does
 * not write, or an @mention, issue reference or URL outside code (GitHub finds those in the
 * rendered text but never inside code). Returns the HTML and the text a reader sees, with
 * line breaks (`<br>`) as newlines.
 */
export function expectInert(markdown: string): { html: string; text: string } {
  const html = marked.parse(markdown, { gfm: true, async: false });
  expect(html).not.toMatch(/<a[\s>]/);
  expect(html).not.toMatch(/<img[\s>/]/i);
  const tags = [...html.matchAll(/<\/?([a-z][a-z0-9]*)/gi)].map((match) => match[1] ?? "");
  expect(tags.filter((tag) => !OUR_TAGS.has(tag))).toEqual([]);
  const outsideCode = decodeAll(
    html.replace(/<code[^>]*>[\s\S]*?<\/code>/g, " ").replace(/<[^>]+>/g, ""),
  );
  expect(outsideCode).not.toMatch(/(^|[^\w])@\w/);
  expect(outsideCode).not.toMatch(/#\d/);
  expect(outsideCode).not.toMatch(/(?:https?|ftp):\/\/|www\./i);
  // A GitHub Actions runner reads a log line that starts with `::` as a workflow command.
  expect(markdown).not.toMatch(/^[ \t]*::/m);
  const text = decodeAll(html.replace(/<br\s*\/?>/g, "\n").replace(/<[^>]+>/g, ""));
  return { html, text };
}
