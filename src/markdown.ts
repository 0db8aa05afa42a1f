/**
 * The one Markdown escaping of incident-sync, for every comment, issue and report it writes
 * (plan, drift, reports, the run report of `up --format markdown`). Text from definitions and
 * from the server is inert: it shows as written, and nothing in it becomes a link, an image,
 * a mention, a reference, HTML or formatting that we did not make.
 */

/**
 * What GitHub turns live in plain text even when every Markdown character is escaped: bare
 * URLs and `www.` addresses (GFM autolinks), e-mail addresses, @mentions and team mentions,
 * and issue references (`#12`, `owner/repo#12`, `GH-12`). GitHub finds mentions and
 * references in the rendered text, where escapes and entities are already undone, but never
 * inside code: such words are shown as code spans.
 */
const LIVE_WORDS =
  /(?:https?:\/\/|www\.)[^\s<>|`]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w`])@[\w-]+(?:\/[\w.-]+)?|(?:[\w.-]+\/[\w.-]+)?#\d+|\bGH-\d+\b/gi;

/**
 * Escapes text so Markdown shows it as written: backslash escapes for every character that
 * can start emphasis, code, a link or image, strikethrough, a heading, list or quote, or HTML
 * (`<n>` and `<ip>` placeholders would otherwise be read as tags and vanish), `&` as an
 * entity so `&lt;` stays literal, `|` so a table cell does not split, and the live words of
 * `LIVE_WORDS` as code spans. Line breaks are kept; `mdCell` flattens them.
 */
export function mdText(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  let out = "";
  let last = 0;
  for (const match of text.matchAll(LIVE_WORDS)) {
    out += escapeMarkdown(text.slice(last, match.index));
    out += codeSpan(match[0]).replace(/\|/g, "\\|");
    last = match.index + match[0].length;
  }
  return out + escapeMarkdown(text.slice(last));
}

function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/&/g, "&amp;")
      .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`)
      // What starts a heading, a list or a thematic break, or underlines a heading, when it
      // opens a line.
      .replace(/^([ \t]*)(#{1,6}|[+-])(?=[ \t]|$)/gm, "$1\\$2")
      .replace(/^([ \t]*)([=-]{2,}[ \t]*)$/gm, "$1\\$2")
      .replace(/^([ \t]*\d{1,9})([.)])(?=[ \t]|$)/gm, "$1\\$2")
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
 * than the longest run of backticks inside, and it is padded with a space on each side (which
 * Markdown strips), so a backtick at either end cannot join the fence. Line breaks become
 * spaces. In a table cell, use `mdCell(mdCode(text))`, which also escapes `|`.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r?\n|\r/g, " ");
  if (flat.trim() === "") return "";
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence} ${flat} ${fence}`;
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
