/**
 * The one Markdown escaping, for every comment, issue and report: text from definitions and
 * the server shows as written, with no link, mention, HTML or formatting we did not make.
 */
import { escapeHidden, escapeHiddenKeepingLines } from "./safe-text";

/**
 * What GitHub makes live even when escaped (autolinks, e-mail, @mentions, issue references),
 * found in the rendered text but never in code: such words become code spans.
 */
const LIVE_WORDS =
  /(?:(?:https?|ftp):\/\/|www\.)[^\s<>|`]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<!\w)@[\w-]+(?:\/[\w.-]+)?|(?:[\w.-]+\/[\w.-]+)?#\d+|\bGH-\d+\b/gi;

/**
 * Text as Markdown shows it written: every character that could start markup escaped, `&` as
 * an entity, `|` escaped, live words as code spans, block openers at line starts defused.
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
 * Defuses what opens a block at a line's start (heading, list, rule, underline, indented code)
 * and `::`, which a runner reads as a workflow command in a step's log.
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
 * Text as one code span nothing in it can end: a fence longer than any backtick run inside,
 * padded when it starts or ends with one; hidden characters escaped, `##[` defused.
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
 * Text as inline code inside raw HTML (a `<summary>`), where Markdown is not read: entities
 * for what could open a tag (and `[`), in a `<code>` element GitHub finds no mention in.
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
 * Markdown cut to `maxLength` on whole lines, an open fence or `<details>` closed, with a note
 * of what was left out (and a link to the whole); text that fits is returned as it is.
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
