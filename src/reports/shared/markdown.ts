/**
 * Escapes text so Markdown shows it as written: backslash escapes for the characters
 * that start emphasis, code, links, strikethrough or HTML (`<n>` and `<ip>` placeholders
 * would otherwise be read as tags and vanish), `&` as an entity so `&lt;` stays literal,
 * and `|` so a table cell does not split.
 */
export function mdText(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(/&/g, "&amp;").replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`);
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

function codeSpan(text: string): string {
  const flat = text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
  if (flat.trim() === "") return "";
  // A run of backticks inside needs a longer fence; spaces keep edge backticks apart.
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence} ${flat} ${fence}`;
}

/** Escapes a value for one GitHub-flavoured Markdown table cell; line breaks become `<br>`. */
export function mdCell(value: unknown): string {
  if (typeof value === "object" && value !== null && "code" in value) {
    return codeSpan(String((value as MdCode).code));
  }
  return mdText(value).replace(/\r?\n/g, "<br>");
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
