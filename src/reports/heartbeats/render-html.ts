import type { LanesSpec } from "../html/chart-data";
import { chartSlot, staticTable, tableSlot, tableSpec } from "../html/table-data";
import { esc, htmlPage } from "../shared/html";
import { heartbeatLane, timeInStateText } from "./lane";
import type { HeartbeatReport } from "./report-schema";
import { STATS_HEADERS, stateCounts, statsRows } from "./stats";

/**
 * The HTML heartbeat report: every heartbeat as a lane of one state timeline, then per
 * heartbeat its stats and its events in a sortable, filterable table.
 */
export function renderHeartbeatHtml(report: HeartbeatReport): string {
  const from = Date.parse(report.window.from);
  const to = Date.parse(report.window.to);
  const lanes = report.checks.map((check) => heartbeatLane(check, from, to));
  const chart: LanesSpec = {
    type: "lanes",
    from,
    to,
    lanes,
    legend: [
      { key: "PASSING", label: "passing" },
      { key: "FAILING", label: "failing" },
      { key: "UNKNOWN", label: "unknown (no earlier event)" },
      { key: "FAILING", label: "state change (dot)", shape: "mark" },
    ],
  };
  const tables: Record<string, unknown> = {};
  const sections = report.checks.map((check, i) => {
    const id = `events-${i}`;
    tables[id] = tableSpec(
      check.events,
      [
        { key: "time", label: "Time", kind: "time", value: (e) => e.timestamp },
        { key: "state", label: "State", kind: "badge", value: (e) => e.state },
        { key: "source", label: "Source", kind: "text", value: (e) => e.source },
        { key: "userAgent", label: "User agent", kind: "mono", value: (e) => e.userAgent },
        { key: "id", label: "Event", kind: "id", value: (e) => e.id },
      ],
      { sortBy: "time", dir: "desc", facets: ["state"], empty: "No events in the window." },
    );
    const stats = check.stats
      ? staticTable(
          STATS_HEADERS.map((label, c) => ({ label, kind: c ? ("num" as const) : undefined })),
          statsRows(check),
          "stats",
        )
      : `<p class="meta">No stats returned.</p>`;
    const before = check.lastEventBefore
      ? `${esc(check.lastEventBefore.state)} since ${esc(check.lastEventBefore.timestamp)}`
      : "unknown (no event in the 30 days before)";
    return `<section class="heartbeat" data-check="${esc(check.checkId)}">
<h2><code class="id">${esc(check.checkId)}</code></h2>
${stats}
<p>${check.events.length} event(s) in the window: ${esc(stateCounts(check))}. State when the window opened: ${before}. Time in each state over the window: ${esc(timeInStateText(lanes[i]!))}.</p>
${tableSlot(id)}
</section>`;
  });
  const body = `<h1>Heartbeats</h1>
<p class="meta">Window ${esc(report.window.from)} to ${esc(report.window.to)} · generated ${esc(report.generatedAt)} · times in UTC</p>
<h2>State timeline</h2>
${chartSlot("timeline", "Heartbeat states over the window, one lane per heartbeat")}
${sections.join("\n")}`;
  return htmlPage({ title: "Heartbeats", body, data: { tables, charts: { timeline: chart } } });
}
