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
