import { heartbeatLane, heartbeatLegend, utcText } from "../heartbeats/lane";
import { STATS_HEADERS, statsRows } from "../heartbeats/stats";
import { type Lane, type LanesSpec, readableDuration, stateSegments } from "../html/chart-data";
import { errorGroupColumns } from "../html/error-group-columns";
import { chartSlot, staticTable, tableSlot, tableSpec } from "../html/table-data";
import { type CheckNames, checkNamed } from "../shared/check-names";
import { esc, htmlPage } from "../shared/html";
import type {
  IncidentErrorGroup,
  IncidentReport,
  IncidentReportIncident,
  TimelineEntry,
} from "./report-schema";
import {
  checkSummary,
  entryWhat,
  heartbeatSummary,
  incidentTitle,
  serviceNames,
  sourceNamed,
  spanText,
  windowText,
} from "./summary";

/** The updates as a lane: a band per status from the update that set it, a dot per update. */
function updatesLane(incident: IncidentReportIncident, from: number, to: number): Lane {
  const updates = incident.timeline.filter((e) => e.kind === "update");
  const changes = updates
    .filter((e) => e.state !== null)
    .map((e) => ({ at: Date.parse(e.at), state: e.state! }));
  return {
    label: `${incident.id} updates`,
    // Before its first update the incident did not exist: no band there.
    segments: stateSegments(changes, from, to, undefined).filter((s) => s.state !== "UNKNOWN"),
    marks: updates.map((e) => ({
      at: Date.parse(e.at),
      key: e.state ?? "update",
      label: `${utcText(Date.parse(e.at))}: ${e.state ?? "update"}: ${e.text}`,
    })),
  };
}

function groupLabel(g: IncidentErrorGroup): string {
  const when = `first seen ${utcText(Date.parse(g.firstSeen))}, last seen ${utcText(Date.parse(g.lastSeen))}`;
  return `${g.newDuringIncident ? "new during the incident" : "seen before the incident"}: ${g.cleanedErrorMessage} (${g.id}; ${when})`;
}

/** The incident's chart: updates, heartbeat states and error groups on one axis. */
function incidentChart(
  incident: IncidentReportIncident,
  now: number,
  names: CheckNames,
): LanesSpec {
  const from = Date.parse(incident.window.from);
  const to = Date.parse(incident.window.to);
  const lanes: Lane[] = [
    updatesLane(incident, from, to),
    ...incident.heartbeats.map((h) => heartbeatLane(h, from, to, checkNamed(h.checkId, names))),
    ...incident.checks.map((c) => ({
      label: checkNamed(c.checkId, names),
      segments: [],
      marks: c.groups.map((g) => ({
        at: Date.parse(g.firstSeen),
        to: Date.parse(g.lastSeen),
        key: g.newDuringIncident ? "group-new" : "group-earlier",
        label: groupLabel(g),
      })),
    })),
  ];
  const statuses = [...new Set(incident.updates.flatMap((u) => (u.status ? [u.status] : [])))];
  const legend: LanesSpec["legend"] = [
    ...(incident.startedAt ? [{ key: "incident", label: "incident open" }] : []),
    ...statuses.map((status) => ({ key: status, label: status.toLowerCase() })),
  ];
  if (incident.heartbeats.length) legend.push(...heartbeatLegend("heartbeat "));
  if (incident.checks.length) {
    legend.push({ key: "group-new", label: "error group new during the incident", shape: "mark" });
    legend.push({ key: "group-earlier", label: "error group seen before", shape: "mark" });
  }
  const spec: LanesSpec = { type: "lanes", from, to, lanes, legend };
  if (incident.startedAt) {
    const start = Date.parse(incident.startedAt);
    const end = incident.resolvedAt ? Date.parse(incident.resolvedAt) : now;
    spec.highlight = {
      from: start,
      to: end,
      label: `incident ${incident.resolvedAt ? "ran" : "open"} for ${readableDuration(end - start)}`,
    };
  }
  return spec;
}

function facts(incident: IncidentReportIncident, now: number): string {
  const d = incident.definition;
  const rows: [string, string][] = [
    [
      "Live status",
      incident.liveStatus
        ? `<span class="badge ${esc(incident.liveStatus)}">${esc(incident.liveStatus)}</span>`
        : "unknown (no status in any update)",
    ],
  ];
  if (d) {
    rows.push(
      [
        "Declared",
        `<span class="badge ${esc(d.status)}">${esc(d.status)}</span> in <code class="id">${esc(`${d.file}:${d.line}`)}</code>`,
      ],
      ["Severity", `<span class="badge ${esc(d.severity)}">${esc(d.severity)}</span>`],
      ["Services", esc(serviceNames(incident).join(", "))],
    );
  } else {
    rows.push(["Definition", "none under the definitions directory"]);
  }
  rows.push(["When", esc(spanText(incident, now))], ["Window", esc(windowText(incident))]);
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

function incidentSection(
  incident: IncidentReportIncident,
  index: number,
  now: number,
  data: { tables: Record<string, unknown>; charts: Record<string, unknown> },
  names: CheckNames,
): string {
  const n = String(index);
  data.charts[`timeline-${n}`] = incidentChart(incident, now, names);
  data.tables[`entries-${n}`] = tableSpec<TimelineEntry>(
    incident.timeline,
    [
      { key: "at", label: "Time", kind: "time", value: (e) => e.at },
      {
        key: "source",
        label: "Source",
        kind: "id",
        value: (e) => sourceNamed(e, incident, names),
      },
      { key: "what", label: "What", kind: "text", value: entryWhat },
      { key: "state", label: "State", kind: "badge", value: (e) => e.state },
      { key: "text", label: "Detail", kind: "text", value: (e) => e.text },
      { key: "ref", label: "Ref", kind: "id", value: (e) => e.ref },
    ],
    {
      sortBy: "at",
      dir: "asc",
      pageSize: 100,
      facets: ["source", "what"],
      empty: "Nothing happened in the window.",
    },
  );
  const groups = incident.checks.flatMap((c) => c.groups);
  data.tables[`groups-${n}`] = tableSpec<IncidentErrorGroup>(
    groups,
    [
      ...errorGroupColumns<IncidentErrorGroup>(names),
      {
        key: "during",
        label: "During the incident",
        kind: "badge",
        value: (g) => (g.newDuringIncident ? "new" : "earlier"),
      },
    ],
    {
      sortBy: "firstSeen",
      dir: "asc",
      facets: ["check", "during"],
      rowClass: { key: "during", values: ["new"], className: "new-row" },
      empty: "No error groups of the evidence checks in the window.",
    },
  );
  const evidence = [
    ...incident.checks.map((c) => [checkNamed(c.checkId, names), "check", checkSummary(c)]),
    ...incident.heartbeats.map((h) => [
      checkNamed(h.checkId, names),
      "heartbeat",
      heartbeatSummary(h, incident),
    ]),
  ];
  const stats = incident.heartbeats
    .map(
      (h) =>
        `<h4>${esc(checkNamed(h.checkId, names))}</h4>${
          h.stats
            ? staticTable(
                STATS_HEADERS.map((label, c) => ({
                  label,
                  kind: c ? ("num" as const) : undefined,
                })),
                statsRows(h),
                "stats",
              )
            : `<p class="meta">No stats returned.</p>`
        }`,
    )
    .join("\n");
  return `<section class="incident" id="incident-${esc(incident.id)}" data-incident="${esc(incident.id)}">
<h2>${esc(incidentTitle(incident))}</h2>
${facts(incident, now)}
${
  evidence.length
    ? staticTable(
        [{ label: "Evidence", kind: "id" }, { label: "Kind" }, { label: "In the window" }],
        evidence,
        "evidence",
      )
    : `<p class="meta">No evidence: the definition lists none and none was given with --heartbeat or --check.</p>`
}
<h3>Timeline</h3>
${chartSlot(`timeline-${n}`, `Updates, heartbeat states and error groups of ${incidentTitle(incident)} on one time axis`)}
${tableSlot(`entries-${n}`)}
<h3>Error groups of the evidence checks</h3>
${tableSlot(`groups-${n}`)}
${incident.heartbeats.length ? `<h3>Heartbeat success ratios (API, relative to now)</h3>\n${stats}` : ""}
</section>`;
}

/**
 * The HTML incident report: per incident its facts, one chart lining up updates,
 * heartbeat states and error groups, the timeline as a table, and the error groups.
 */
export function renderIncidentHtml(report: IncidentReport): string {
  const now = Date.parse(report.generatedAt);
  const data = { tables: {} as Record<string, unknown>, charts: {} as Record<string, unknown> };
  const names = report.checkNames ?? {};
  const sections = report.incidents.map((incident, i) =>
    incidentSection(incident, i, now, data, names),
  );
  const toc =
    report.incidents.length > 1
      ? `<nav class="toc">${report.incidents
          .map((i) => `<a href="#incident-${esc(i.id)}">${esc(incidentTitle(i))}</a>`)
          .join("")}</nav>`
      : "";
  const body = `<h1>Incident report</h1>
<p class="meta">Generated ${esc(report.generatedAt)} · ${report.incidents.length} incident(s) · times in UTC</p>
${toc}
${sections.join("\n")}`;
  return htmlPage({
    title: `Incident report: ${report.incidents.map(incidentTitle).join(", ")}`,
    body,
    data,
  });
}
