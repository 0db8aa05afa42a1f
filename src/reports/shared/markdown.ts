/** Escapes a value for one GitHub-flavoured Markdown table cell. */
export function mdCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
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
