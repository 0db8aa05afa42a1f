/**
 * The one Markdown escaping of incident-sync, for every comment, issue and report it writes
 * (plan, drift, reports, the run report of `up --format markdown`). Text from definitions and
 * from the server is inert: it shows as written, and nothing in it becomes a link, an image,
 * a mention, a reference, HTML or formatting that we did not make, and the sanitiser
 * (`src/safe-text.ts`) shows its hidden characters (escape sequences, bidi controls, a lone
 * carriage return) as escapes first.
 */
import { escapeHidden, escapeHiddenKeepingLines } from "./safe-text";

/**
 * What GitHub turns live in plain text even when every Markdown character is escaped: bare
 * URLs (`http`, `https`, `ftp`) and `www.` addresses (GFM autolinks), e-mail addresses,
 * @mentions and team mentions, and issue references (`#12`, `owner/repo#12`, `GH-12`).
 * GitHub finds mentions and references in the rendered text, where escapes and entities are
 * already undone (so neither `\\@` nor `&#64;` stops one), but never inside code: such words
 * are shown as code spans. A mention needs only a non-word character before it, a backtick
 * included.
 */
const LIVE_WORDS =
  /(?:(?:https?|ftp):\/\/|www\.)[^\s<>|`]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<!\w)@[\w-]+(?:\/[\w.-]+)?|(?:[\w.-]+\/[\w.-]+)?#\d+|\bGH-\d+\b/gi;

/**
 * Escapes text so Markdown shows it as written: backslash escapes for every character that
 * can start emphasis, code, a link or image, strikethrough, math (`$`), or HTML (`<n>` and
 * `<ip>` placeholders would otherwise be read as tags and vanish), `&` as an entity so `&lt;`
 * stays literal, `|` so a table cell does not split, the live words of `LIVE_WORDS` as code
 * spans, and at the start of each line what would open a block (see `escapeLineStarts`).
 * Line breaks are kept; `mdCell` flattens them.
 */
export function mdText(value: unknown): string {
  const text = escapeHiddenKeepingLines(value);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(LIVE_WORDS)) {
    out += escapeInline(text.slice(last, match.index));
    out += codeSpan(match[0]);
    last = match.index + match[0].length;
  }
  return escapeLineStarts(out + escapeInline(text.slice(last)));
}

function escapeInline(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/[\\`*_[\]<>|~$]/g, (c) => `\\${c}`);
}

/**
 * What opens a block when it starts a line of the escaped text (whose lines start with
 * text, an escape or a code span's backticks): a heading, a list item or a thematic break,
 * a heading's underline, and indentation that would make a code block (its first blank as
 * an entity). `::` is escaped too: a GitHub Actions runner reads a log line that starts with
 * it as a workflow command, and Markdown printed by a step lands in the log.
 */
function escapeLineStarts(text: string): string {
  return (
    text
      .replace(/^([ \t]*)(#{1,6}|[+-])(?=[ \t]|$)/gm, "$1\\$2")
      .replace(/^([ \t]*)([=-]{2,}[ \t]*)$/gm, "$1\\$2")
      .replace(/^([ \t]*\d{1,9})([.)])(?=[ \t]|$)/gm, "$1\\$2")
      // The runner trims any Unicode whitespace before it looks for `::`.
      .replace(/^((?:(?!\n)\p{White_Space})*):(?=:)/gmu, "$1\\:")
      .replace(/^[ \t]/gm, (blank) => (blank === " " ? "&#32;" : "&#9;"))
  );
}

/** A table cell shown as inline code: see `mdCode`. */
export interface MdCode {
  readonly code: string;
}

/**
 * Marks machine text (error messages, descriptions) to be shown as inline code: nothing
 * in it is read as Markdown, not even a URL (GFM would turn `https://…/<id>` into a
 * link that swallows what follows), and `<n>` needs no escape.
 */
export function mdCode(value: string | null | undefined): MdCode {
  return { code: value ?? "" };
}

/**
 * Text as one inline code span that nothing in it can end: its fence is one backtick longer
 * than the longest run of backticks inside, and when the text starts or ends with a backtick
 * or a space it is padded with a space on each side (which Markdown strips), so a backtick at
 * either end cannot join the fence and the text's own spaces are kept. Line breaks become
 * spaces, hidden characters escapes, and `##[` (a workflow command anywhere in a log line)
 * `##\[`. In a table cell, use `mdCell(mdCode(text))`, which also escapes `|`.
 */
export function codeSpan(text: string): string {
  // A log line holding `##[` anywhere is a workflow command; in code no escape is read.
  const flat = escapeHidden(text.replace(/\r?\n|\r/g, " ")).replace(/##\[/g, "##\\[");
  if (flat.trim() === "") return "";
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = /^[ `]|[ `]$/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * Text as inline code inside raw HTML (a `<summary>` line), where Markdown is not read, so
 * neither its escapes nor its code spans work: HTML entities for what could open a tag or an
 * entity (and for `[`, so no `##[` workflow command is in the line), and a `<code>` element,
 * in which GitHub finds no mention or reference.
 */
export function htmlCode(text: string): string {
  const flat = escapeHidden(text.replace(/\r?\n|\r/g, " ")).replace(
    /[&<>"'[]/g,
    (c) => `&#${c.charCodeAt(0)};`,
  );
  return `<code>${flat}</code>`;
}

/** Escapes a value for one GitHub-flavoured Markdown table cell; line breaks become `<br>`. */
export function mdCell(value: unknown): string {
  // GFM splits a row at every unescaped `|` before it reads code spans.
  if (typeof value === "object" && value !== null && "code" in value) {
    return codeSpan(String((value as MdCode).code)).replace(/\|/g, "\\|");
  }
  return mdText(value).replace(/\r?\n|\r/g, "<br>");
}

/** Renders a GitHub-flavoured Markdown table; every row must have one cell per header. */
export function mdTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const lines = [
    `| ${headers.map(mdCell).join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(mdCell).join(" | ")} |`),
  ];
  return `${lines.join("\n")}\n`;
}

/** The longest body GitHub accepts for a comment or an issue, in characters. */
export const GITHUB_COMMENT_MAX = 65_536;

/**
 * Markdown cut to fit a GitHub comment or issue body of `maxLength` characters: whole lines
 * are kept while they fit, a code fence or `<details>` block left open is closed, and a note
 * says how much was left out, with a link to the whole text when there is one. Text that
 * fits is returned as it is.
 */
export function fitComment(
  markdown: string,
  maxLength = GITHUB_COMMENT_MAX,
  link?: string,
): string {
  if (markdown.length <= maxLength) return markdown;
  const lines = markdown.split("\n");
  const note = (left: number) =>
    `\n\n---\n✂️ Cut to fit a GitHub comment: ${left} of ${lines.length} lines (${markdown.length} characters in all) left out.${link ? ` The whole text: ${link}` : ""}\n`;
  const kept: string[] = [];
  let length = 0;
  let fence: string | undefined;
  let details = 0;
  const closing = () => `${fence ? `\n${fence}` : ""}${"\n</details>".repeat(details)}`;
  for (const line of lines) {
    const next = length + line.length + 1;
    const after = fenceAfter(fence, line);
    const detailsAfter =
      details + (/<details>/i.test(line) ? 1 : 0) - (/<\/details>/i.test(line) ? 1 : 0);
    const tail = `${after ? `\n${after}` : ""}${"\n</details>".repeat(Math.max(0, detailsAfter))}`;
    if (next + tail.length + note(lines.length).length > maxLength) break;
    kept.push(line);
    length = next;
    fence = after;
    details = Math.max(0, detailsAfter);
  }
  return `${kept.join("\n")}${closing()}${note(lines.length - kept.length)}`;
}

/** The fence open after `line`, given the one open before it. */
function fenceAfter(open: string | undefined, line: string): string | undefined {
  const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
  if (marker === undefined) return open;
  if (open === undefined) return marker;
  return marker[0] === open[0] && marker.length >= open.length ? undefined : open;
}
