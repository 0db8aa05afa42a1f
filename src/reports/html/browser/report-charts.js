// Charts of the HTML reports, drawn with uPlot (inlined before this file). The report
// computes what to draw (buckets, state segments, marks); this file only lays it out:
// time axes in UTC, a legend, and a tooltip that follows the cursor.
(() => {
  window.incidentSyncReport ??= {};
  const ns = window.incidentSyncReport;
  /* global uPlot */

  /**
   * One colour per state or kind, shared by bands, marks and legends. Heartbeat lanes are
   * coloured by what a state means (arrived, grace, missed, unknown), never by its name, so
   * a state the service adds later is drawn as unknown.
   */
  const COLORS = {
    arrived: "#1a7f37",
    grace: "#bf8700",
    missed: "#cf222e",
    unknown: "#8c959f",
    UNKNOWN: "#8c959f",
    INVESTIGATING: "#cf222e",
    IDENTIFIED: "#bc4c00",
    MONITORING: "#0969da",
    RESOLVED: "#1a7f37",
    update: "#6639ba",
    "group-new": "#cf222e",
    "group-earlier": "#8c959f",
    "first-seen": "#cf222e",
    "last-seen": "#0969da",
    incident: "#fff8c5",
  };
  // Keys can be server text (a status): only the table's own entries are colours.
  const colorOf = (key) => (Object.hasOwn(COLORS, key) ? COLORS[key] : "#9a6700");
  const utc = (seconds) => uPlot.tzDate(new Date(seconds * 1e3), "Etc/UTC");
  const when = (ms) => ns.formatTime(new Date(ms).toISOString());

  /**
   * Time-axis labels in UTC, 24-hour: "14:00", with the date under the first label of each
   * day (under the very first label too, unless a new day starts within two ticks, where
   * the two dates would collide); dates alone when ticks are a day or more apart.
   */
  const timeLabels = (_u, ticks, _space, incr) => {
    const iso = ticks.map((t) => new Date(t * 1e3).toISOString());
    if (incr >= 86400) return iso.map((s) => s.slice(0, 10));
    const firstNewDay = iso.findIndex(
      (s, i) => i > 0 && s.slice(0, 10) !== iso[i - 1].slice(0, 10),
    );
    return iso.map((s, i) => {
      const time = s.slice(11, 16);
      const newDay =
        i === 0 ? firstNewDay < 0 || firstNewDay > 2 : s.slice(0, 10) !== iso[i - 1].slice(0, 10);
      return newDay ? `${time}\n${s.slice(0, 10)}` : time;
    });
  };

  const widthOf = (root) => Math.max(480, Math.floor(root.getBoundingClientRect().width || 960));

  /** A tooltip inside the plot area; `text(u)` returns what to show or "" to hide it. */
  const tooltip = (text) => {
    let tip;
    return {
      hooks: {
        init: (u) => {
          tip = document.createElement("div");
          tip.className = "chart-tip";
          tip.hidden = true;
          u.over.append(tip);
          u.over.addEventListener("mouseleave", () => {
            tip.hidden = true;
          });
        },
        setCursor: (u) => {
          const { left, top } = u.cursor;
          const content = left >= 0 && top >= 0 ? text(u, left, top) : "";
          tip.hidden = !content;
          if (!content) return;
          tip.textContent = content;
          const flip = left > u.over.clientWidth * 0.6;
          tip.style.left = `${flip ? left - tip.offsetWidth - 12 : left + 12}px`;
          tip.style.top = `${Math.min(top + 12, u.over.clientHeight - tip.offsetHeight)}px`;
        },
      },
    };
  };

  const legend = (root, items) => {
    const list = document.createElement("div");
    list.className = "chart-legend";
    for (const { key, label, shape } of items) {
      const item = document.createElement("span");
      const swatch = document.createElement("span");
      swatch.className = `swatch ${shape ?? ""}`;
      swatch.style.background = colorOf(key);
      item.append(swatch, label);
      list.append(item);
    }
    root.append(list);
  };

  /**
   * Bars per time bucket: { bucketMs, starts: [ms], series: [{ key, label, counts }], yLabel },
   * with one or two series.
   */
  function histogram(root, spec) {
    const n = spec.series.length;
    const xs = spec.starts.map((ms) => (ms + spec.bucketMs / 2) / 1e3);
    const half = spec.bucketMs / 2e3;
    const opts = {
      width: widthOf(root),
      height: 300,
      tzDate: utc,
      scales: {
        x: { time: true, range: () => [xs[0] - half, xs[xs.length - 1] + half] },
        y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
      },
      axes: [
        { label: "time (UTC)", values: timeLabels, grid: { show: false } },
        {
          label: spec.yLabel,
          values: (_u, ticks) =>
            ticks.map((t) => (Number.isInteger(t) ? t.toLocaleString("en-US") : "")),
        },
      ],
      series: [
        { value: (_u, v) => (v == null ? "–" : `${when(v * 1e3 - spec.bucketMs / 2)} UTC`) },
        ...spec.series.map((s, i) => ({
          label: s.label,
          stroke: colorOf(s.key),
          fill: `${colorOf(s.key)}cc`,
          width: 0,
          points: { show: false },
          // Two series stand side by side in their bucket: the first left of centre, the second right.
          paths: uPlot.paths.bars({
            size: [n === 1 ? 0.8 : 0.4, 48],
            align: n === 1 ? 0 : i === 0 ? -1 : 1,
          }),
        })),
      ],
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      plugins: [
        tooltip((u) => {
          const i = u.cursor.idx;
          if (i == null) return "";
          const from = spec.starts[i];
          const lines = spec.series.map(
            (s) => `${s.label}: ${s.counts[i].toLocaleString("en-US")}`,
          );
          return `${when(from)} – ${when(from + spec.bucketMs)} UTC\n${lines.join("\n")}`;
        }),
      ],
    };
    const plot = new uPlot(opts, [xs, ...spec.series.map((s) => s.counts)], root);
    return plot;
  }

  /**
   * Lanes on one time axis: { from, to, highlight?: { from, to, label }, lanes: [{ label,
   * segments: [{ from, to, state, key?, label }], marks: [{ at, to?, key, label }] }], legend }.
   * Segments are bands coloured by state; marks are dots (with a thin line to `to`).
   */
  function lanes(root, spec) {
    const count = spec.lanes.length;
    const pad = (spec.to - spec.from) * 0.015;
    const yOf = (lane) => count - 1 - lane;
    const laneAt = (u, top) => {
      const lane = count - 1 - Math.round(u.posToVal(top, "y"));
      return lane >= 0 && lane < count ? lane : -1;
    };
    const labelWidth = Math.min(260, 16 + 7.2 * Math.max(...spec.lanes.map((l) => l.label.length)));
    const draw = (u) => {
      const { ctx } = u;
      const { left, top, width, height } = u.bbox;
      const px = devicePixelRatio || 1;
      const x = (ms) => Math.min(left + width, Math.max(left, u.valToPos(ms / 1e3, "x", true)));
      const y = (lane) => u.valToPos(yOf(lane), "y", true);
      const band = (height / count) * 0.5;
      ctx.save();
      ctx.beginPath();
      ctx.rect(left, top, width, height);
      ctx.clip();
      if (spec.highlight) {
        ctx.fillStyle = colorOf("incident");
        ctx.fillRect(
          x(spec.highlight.from),
          top,
          Math.max(1, x(spec.highlight.to) - x(spec.highlight.from)),
          height,
        );
      }
      spec.lanes.forEach((lane, l) => {
        for (const s of lane.segments) {
          ctx.globalAlpha = s.state === "UNKNOWN" ? 0.25 : 0.45;
          ctx.fillStyle = colorOf(s.key ?? s.state);
          ctx.fillRect(x(s.from), y(l) - band / 2, Math.max(px, x(s.to) - x(s.from)), band);
        }
        ctx.globalAlpha = 1;
        for (const m of lane.marks) {
          ctx.strokeStyle = ctx.fillStyle = colorOf(m.key);
          if (m.to !== undefined && m.to > m.at) {
            ctx.lineWidth = 2 * px;
            ctx.beginPath();
            ctx.moveTo(x(m.at), y(l));
            ctx.lineTo(x(m.to), y(l));
            ctx.stroke();
          }
          ctx.beginPath();
          ctx.arc(x(m.at), y(l), 5 * px, 0, 2 * Math.PI);
          ctx.fill();
          ctx.lineWidth = 1.5 * px;
          ctx.strokeStyle = "#fff";
          ctx.stroke();
        }
      });
      ctx.restore();
      root.dataset.drawn = String(
        spec.lanes.reduce((n, l) => n + l.segments.length + l.marks.length, 0),
      );
    };
    const hit = (u, left, top) => {
      const lane = laneAt(u, top);
      if (lane < 0) return "";
      const { label, marks, segments } = spec.lanes[lane];
      const ms = u.posToVal(left, "x") * 1e3;
      const near = marks
        .map((m) => ({ m, d: Math.abs(u.valToPos(m.at / 1e3, "x") - left) }))
        .filter(({ d }) => d <= 7)
        .sort((a, b) => a.d - b.d)
        .map(({ m }) => m.label);
      if (near.length)
        return `${label}\n${near.slice(0, 4).join("\n")}${near.length > 4 ? `\n… and ${near.length - 4} more here` : ""}`;
      const segment = segments.find((s) => s.from <= ms && ms <= s.to);
      const inIncident = spec.highlight && spec.highlight.from <= ms && ms <= spec.highlight.to;
      const lines = [label, `${when(ms)} UTC`];
      if (segment) lines.push(segment.label);
      if (inIncident) lines.push(spec.highlight.label);
      return lines.join("\n");
    };
    const opts = {
      width: widthOf(root),
      height: 70 + 46 * count,
      tzDate: utc,
      legend: { show: false },
      scales: {
        // A little room at both ends, so a dot at the window's edge is drawn whole.
        x: { time: true, range: () => [(spec.from - pad) / 1e3, (spec.to + pad) / 1e3] },
        y: { range: () => [-0.5, count - 0.5] },
      },
      axes: [
        { label: "time (UTC)", values: timeLabels },
        {
          size: labelWidth,
          splits: () => spec.lanes.map((_l, i) => yOf(i)),
          values: (_u, splits) => splits.map((v) => spec.lanes[count - 1 - v]?.label ?? ""),
          grid: { show: false },
          ticks: { show: false },
        },
      ],
      series: [{}, { show: false }],
      cursor: { points: { show: false }, drag: { x: false, y: false }, y: false },
      hooks: { draw: [draw] },
      plugins: [tooltip(hit)],
    };
    const plot = new uPlot(
      opts,
      [
        [spec.from / 1e3, spec.to / 1e3],
        [null, null],
      ],
      root,
    );
    legend(root, spec.legend);
    return plot;
  }

  const kinds = { histogram, lanes };

  /** Draws `spec` into `root` and marks it drawn, so a reader (or a test) can tell. */
  ns.chart = (root, spec) => {
    const draw = kinds[spec.type];
    if (!draw) throw new Error(`unknown chart type ${spec.type}`);
    root.replaceChildren();
    const plot = draw(root, spec);
    root.dataset.type = spec.type;
    root.dataset.drawn ??= "true";
    const resize = () => plot.setSize({ width: widthOf(root), height: plot.height });
    window.addEventListener("resize", resize);
    return plot;
  };
})();
