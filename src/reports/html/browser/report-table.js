// Data tables of the HTML reports: sort by any column, filter by text and by facet, and
// page. Only the current page is in the DOM, so 10,000 rows cost one sort and one page
// of elements, not 10,000 rows of layout. Inlined into each report; no dependencies.
(() => {
  window.incidentSyncReport ??= {};
  const ns = window.incidentSyncReport;

  /** "2026-11-01T10:12:31.442Z" -> "2026-11-01 10:12:31" (UTC, as the chart axes). */
  const formatTime = (value) => {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 19).replace("T", " ") : value;
  };
  ns.formatTime = formatTime;

  const sortKey = (kind, value) => {
    if (value === null || value === undefined || value === "") return null;
    if (kind === "time") return Date.parse(value) || 0;
    if (kind === "num") return Number(value);
    return String(value).toLowerCase();
  };

  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  /** Fills one cell; ids go in <code class="id"> so they never wrap inside. */
  const fillCell = (td, kind, value) => {
    td.className = kind === "badge" ? "tag" : kind;
    if (value === null || value === undefined || value === "") return;
    if (kind === "id") td.append(el("code", "id", String(value)));
    else if (kind === "badge") td.append(el("span", `badge ${value}`, String(value)));
    else if (kind === "time") {
      td.textContent = formatTime(value);
      td.title = String(value);
    } else if (kind === "num") td.textContent = Number(value).toLocaleString("en-US");
    else td.textContent = String(value);
  };

  /**
   * Draws `spec` into `root`: { columns: [{ key, label, kind }], rows: [[cell, ...]],
   * sort: { column, dir }, pageSize, facets: [column index], rowClass: { column, values } }.
   */
  ns.table = (root, spec) => {
    const { columns, rows } = spec;
    const keys = columns.map((column, c) => rows.map((row) => sortKey(column.kind, row[c])));
    const haystack = rows.map((row) =>
      row
        .map((cell, c) => (columns[c].kind === "time" ? `${cell} ${formatTime(cell)}` : cell))
        .join("\u0001")
        .toLowerCase(),
    );
    const state = {
      sort: spec.sort ?? { column: 0, dir: "asc" },
      words: [],
      facets: new Map(),
      page: 0,
      pageSize: spec.pageSize ?? 50,
      order: [],
    };

    const controls = el("div", "dt-controls");
    const search = el("input");
    search.type = "search";
    search.placeholder = `Filter ${rows.length.toLocaleString("en-US")} rows…`;
    search.setAttribute("aria-label", "Filter rows");
    controls.append(search);
    for (const c of spec.facets ?? []) {
      const select = el("select");
      select.setAttribute("aria-label", `Only ${columns[c].label}`);
      select.dataset.column = String(c);
      select.append(new Option(`${columns[c].label}: all`, ""));
      const values = [...new Set(rows.map((row) => row[c]).filter((v) => v !== null && v !== ""))];
      for (const value of values.sort()) select.append(new Option(String(value), String(value)));
      select.addEventListener("change", () => {
        if (select.value) state.facets.set(c, select.value);
        else state.facets.delete(c);
        state.page = 0;
        refresh();
      });
      controls.append(select);
    }
    const sizes = el("select");
    sizes.setAttribute("aria-label", "Rows per page");
    for (const n of [25, 50, 100, 500]) sizes.append(new Option(`${n} per page`, String(n)));
    sizes.value = String(state.pageSize);
    sizes.addEventListener("change", () => {
      state.pageSize = Number(sizes.value);
      state.page = 0;
      render();
    });
    const status = el("span", "dt-status");
    status.setAttribute("role", "status");
    controls.append(sizes, status);

    const table = el("table", "data");
    const thead = table.createTHead();
    const headRow = thead.insertRow();
    const heads = columns.map((column, c) => {
      const th = el("th", column.kind === "num" ? "sortable num" : "sortable", column.label);
      th.dataset.key = column.key;
      th.tabIndex = 0;
      const toggle = () => {
        const dir =
          state.sort.column === c
            ? state.sort.dir === "asc"
              ? "desc"
              : "asc"
            : column.kind === "time" || column.kind === "num"
              ? "desc"
              : "asc";
        state.sort = { column: c, dir };
        state.page = 0;
        refresh();
      };
      th.addEventListener("click", toggle);
      th.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          toggle();
        }
      });
      headRow.append(th);
      return th;
    });
    const tbody = table.createTBody();
    const scroll = el("div", "table-scroll");
    scroll.append(table);

    const pager = el("div", "dt-pager");
    const prev = el("button", "", "‹ Previous");
    const next = el("button", "", "Next ›");
    const where = el("span", "dt-status");
    prev.type = next.type = "button";
    prev.addEventListener("click", () => {
      state.page -= 1;
      render();
    });
    next.addEventListener("click", () => {
      state.page += 1;
      render();
    });
    pager.append(prev, where, next);
    root.replaceChildren(controls, scroll, pager);

    let timer;
    search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
        state.page = 0;
        refresh();
      }, 120);
    });

    /** Filters and sorts the row indexes, then draws the current page. */
    function refresh() {
      const { column, dir } = state.sort;
      const sign = dir === "asc" ? 1 : -1;
      const key = keys[column];
      const matching = [];
      for (let r = 0; r < rows.length; r += 1) {
        let keep = state.words.every((word) => haystack[r].includes(word));
        for (const [c, value] of state.facets) keep &&= String(rows[r][c]) === value;
        if (keep) matching.push(r);
      }
      matching.sort((a, b) => {
        const x = key[a];
        const y = key[b];
        if (x === y) return a - b;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * sign;
      });
      state.order = matching;
      heads.forEach((th, c) => {
        if (c === column) th.setAttribute("aria-sort", dir === "asc" ? "ascending" : "descending");
        else th.removeAttribute("aria-sort");
      });
      render();
    }

    function render() {
      const total = state.order.length;
      const pages = Math.max(1, Math.ceil(total / state.pageSize));
      state.page = Math.min(Math.max(state.page, 0), pages - 1);
      const start = state.page * state.pageSize;
      const slice = state.order.slice(start, start + state.pageSize);
      const fragment = document.createDocumentFragment();
      for (const r of slice) {
        const tr = document.createElement("tr");
        const row = rows[r];
        if (spec.rowClass?.values.includes(row[spec.rowClass.column])) {
          tr.className = spec.rowClass.className;
        }
        for (let c = 0; c < columns.length; c += 1)
          fillCell(tr.insertCell(), columns[c].kind, row[c]);
        fragment.append(tr);
      }
      if (slice.length === 0) {
        const td = el("td", "empty", spec.empty ?? "No rows match the filter.");
        td.colSpan = columns.length;
        const tr = document.createElement("tr");
        tr.append(td);
        fragment.append(tr);
      }
      tbody.replaceChildren(fragment);
      const filtered =
        total === rows.length ? "" : ` (filtered from ${rows.length.toLocaleString("en-US")})`;
      status.textContent = `${total.toLocaleString("en-US")} ${total === 1 ? "row" : "rows"}${filtered}`;
      where.textContent = total
        ? `${(start + 1).toLocaleString("en-US")}–${(start + slice.length).toLocaleString("en-US")} of ${total.toLocaleString("en-US")} · page ${state.page + 1} of ${pages}`
        : "no rows";
      prev.disabled = state.page === 0;
      next.disabled = state.page >= pages - 1;
      pager.hidden = pages === 1;
    }

    refresh();
  };
})();
