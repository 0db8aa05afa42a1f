import { heartbeatStateClass } from "../../api/schemas";
import type { LanesSpec } from "../html/chart-data";
import { chartSlot, staticTable, tableSlot, tableSpec } from "../html/table-data";
import { checkNamed } from "../shared/check-names";
import { esc, htmlPage } from "../shared/html";
import { currentState, heartbeatLane, heartbeatLegend, timeInStateText } from "./lane";
import type { HeartbeatReport } from "./report-schema";
import { MEANING_TEXT, stateName, stateWithMeaning } from "./state";
import { STATS_HEADERS, stateCounts, statsRows } from "./stats";

/**
 * The HTML heartbeat report: every heartbeat as a lane of one state timeline, then per
 * heartbeat its stats and its events in a sortable, filterable table.
 */
export function renderHeartbeatHtml(report: HeartbeatReport): string {
  const from = Date.parse(report.window.from);
  const to = Date.parse(report.window.to);
  const named = (checkId: string) => checkNamed(checkId, report.checkNames ?? {});
  const lanes = report.checks.map((check) => heartbeatLane(check, from, to, named(check.checkId)));
  const chart: LanesSpec = {
    type: "lanes",
    from,
    to,
    lanes,
    legend: [
      ...heartbeatLegend(),
      { key: "missed", label: "state change (dot, coloured as its band)", shape: "mark" },
    ],
  };
  const tables: Record<string, unknown> = {};
  const sections = report.checks.map((check, i) => {
    const id = `events-${i}`;
    tables[id] = tableSpec(
      check.events,
      [
        { key: "time", label: "Time", kind: "time", value: (e) => e.timestamp ?? null },
        { key: "state", label: "State", kind: "badge", value: (e) => stateName(e.state) },
        {
          key: "meaning",
          label: "Meaning",
          kind: "text",
          value: (e) => MEANING_TEXT[heartbeatStateClass(e.state)],
        },
        { key: "source", label: "Source", kind: "text", value: (e) => e.source ?? null },
        { key: "userAgent", label: "User agent", kind: "mono", value: (e) => e.userAgent ?? null },
        { key: "id", label: "Event", kind: "id", value: (e) => e.id },
      ],
      {
        sortBy: "time",
        dir: "asc",
        facets: ["state", "meaning"],
        empty: "No events in the window.",
      },
    );
    const stats = check.stats
      ? staticTable(
          STATS_HEADERS.map((label, c) => ({ label, kind: c ? ("num" as const) : undefined })),
          statsRows(check),
          "stats",
        )
      : `<p class="meta">No stats returned.</p>`;
    const before = check.lastEventBefore
      ? `${esc(stateWithMeaning(check.lastEventBefore.state))} since ${esc(check.lastEventBefore.timestamp ?? "an unknown time")}`
      : "unknown (no event in the 30 days before)";
    const warnings = check.warnings
      .map((warning) => `<p class="warning">Warning: ${esc(warning)}</p>`)
      .join("\n");
    return `<section class="heartbeat" data-check="${esc(check.checkId)}">
<h2>${esc(named(check.checkId))}</h2>
<p class="now">Now: ${esc(currentState(check, to))}.</p>
${warnings}
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
