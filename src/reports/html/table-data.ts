import { esc } from "../shared/html";

/** How a column's cells look and sort in the page: ids never wrap, times sort as times. */
export type ColumnKind = "id" | "text" | "mono" | "time" | "num" | "badge";

export type Cell = string | number | null;

export interface Column<Row> {
  key: string;
  label: string;
  kind: ColumnKind;
  value: (row: Row) => Cell;
}

/** What `report-table.js` draws: rows as arrays, so 10,000 of them stay compact. */
export interface TableSpec {
  columns: { key: string; label: string; kind: ColumnKind }[];
  rows: Cell[][];
  sort: { column: number; dir: "asc" | "desc" };
  pageSize?: number;
  /** Columns offered as a drop-down filter. */
  facets?: number[];
  /** Rows whose cell in `column` is one of `values` get `className`. */
  rowClass?: { column: number; values: Cell[]; className: string };
  empty?: string;
}

export interface TableOptions {
  sortBy: string;
  dir: "asc" | "desc";
  pageSize?: number;
  facets?: string[];
  rowClass?: { key: string; values: Cell[]; className: string };
  empty?: string;
}

/** Builds a table spec from typed rows and column definitions. */
export function tableSpec<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: TableOptions,
): TableSpec {
  const index = (key: string) => {
    const i = columns.findIndex((c) => c.key === key);
    if (i < 0) throw new Error(`no column ${key}`);
    return i;
  };
  const spec: TableSpec = {
    columns: columns.map(({ key, label, kind }) => ({ key, label, kind })),
    rows: rows.map((row) => columns.map((c) => c.value(row))),
    sort: { column: index(options.sortBy), dir: options.dir },
  };
  if (options.pageSize) spec.pageSize = options.pageSize;
  if (options.facets) spec.facets = options.facets.map(index);
  if (options.rowClass) {
    spec.rowClass = {
      column: index(options.rowClass.key),
      values: options.rowClass.values,
      className: options.rowClass.className,
    };
  }
  if (options.empty) spec.empty = options.empty;
  return spec;
}

/** Where the page script draws table `id`. */
export function tableSlot(id: string): string {
  return `<div class="data-table" data-table="${esc(id)}"></div>`;
}

/** Where the page script draws chart `id`. */
export function chartSlot(id: string, label: string): string {
  return `<div class="chart" data-chart="${esc(id)}" role="img" aria-label="${esc(label)}"></div>`;
}

/** A small static table, rendered now (summaries and stats need no script). */
export function staticTable(
  headers: readonly { label: string; kind?: ColumnKind }[],
  rows: readonly (readonly Cell[])[],
  className: string,
): string {
  const cell = (value: Cell, kind: ColumnKind | undefined) => {
    const text = esc(typeof value === "number" ? value.toLocaleString("en-US") : value);
    if (kind === "id") return `<td class="id"><code class="id">${text}</code></td>`;
    if (kind === "badge") return `<td><span class="badge ${text}">${text}</span></td>`;
    return `<td${kind ? ` class="${kind}"` : ""}>${text}</td>`;
  };
  return `<table class="${esc(className)}"><thead><tr>${headers
    .map((h) => `<th${h.kind === "num" ? ' class="num"' : ""}>${esc(h.label)}</th>`)
    .join("")}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((value, i) => cell(value, headers[i]?.kind)).join("")}</tr>`)
    .join("")}</tbody></table>`;
}
