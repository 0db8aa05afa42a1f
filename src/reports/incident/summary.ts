import { heartbeatStateClass } from "../../api/schemas";
import { incidentNamed } from "../../incident";
import { named } from "../../named";
import { currentState, timeByMeaning, utcText } from "../heartbeats/lane";
import { readableDuration } from "../html/chart-data";
import { type CheckNames, checkNamed } from "../shared/check-names";
import type {
  IncidentReportCheck,
  IncidentReportHeartbeat,
  IncidentReportIncident,
  TimelineEntry,
} from "./report-schema";

/** `3 h 10 min`-style span of the incident, and whether it is still open. */
export function spanText(incident: IncidentReportIncident, now: number): string {
  if (!incident.startedAt) return "No updates: the API has no start for this incident.";
  const started = Date.parse(incident.startedAt);
  if (incident.resolvedAt) {
    const resolved = Date.parse(incident.resolvedAt);
    return `Started ${utcText(started)} (first update), resolved ${utcText(resolved)} after ${readableDuration(resolved - started)}.`;
  }
  return `Started ${utcText(started)} (first update); not resolved, open for ${readableDuration(now - started)}.`;
}

export function windowText(incident: IncidentReportIncident): string {
  const margin = incident.startedAt
    ? incident.window.marginMs === null
      ? "as given"
      : `${readableDuration(incident.window.marginMs)} margin`
    : "no update to start from, so the day before its end";
  return `Window ${utcText(Date.parse(incident.window.from))} to ${utcText(Date.parse(incident.window.to))} (${margin}).`;
}

function percent(share: number | undefined): string {
  return share === undefined ? "n/a" : `${(share * 100).toFixed(1)} %`;
}

/**
 * One line about a heartbeat over the window: state now, time missed or failing (LATE,
 * FAILING), the API's ratio, and any warning about odd values the API sent.
 */
export function heartbeatSummary(
  heartbeat: IncidentReportHeartbeat,
  incident: IncidentReportIncident,
): string {
  const to = Date.parse(incident.window.to);
  const missed = heartbeat.events.filter((e) => heartbeatStateClass(e.state) === "missed").length;
  const ratio = heartbeat.stats?.last24Hours?.successRatio?.currentPeriod;
  return [
    `${currentState(heartbeat, to)} at the end of the window`,
    `${heartbeat.events.length} state change(s) in the window, ${missed} to missed or failing`,
    `missed or failing ${percent(timeByMeaning(heartbeat.timeInState).missed)} of the window`,
    `success ${ratio === undefined ? "n/a" : `${ratio.toFixed(2)} %`} over the last 24 h (API)`,
    ...heartbeat.warnings.map((warning) => `warning: ${warning}`),
  ].join("; ");
}

/** One line about a check's error groups in the window. */
export function checkSummary(check: IncidentReportCheck): string {
  const fresh = check.groups.filter((g) => g.newDuringIncident).length;
  const outside =
    check.groupsOutsideWindow > 0
      ? `; ${check.groupsOutsideWindow} other group(s) not seen in the window`
      : "";
  return `${check.groups.length} error group(s) seen in the window, ${fresh} first seen during the incident${outside}`;
}

/** What a timeline entry is, in a few words. */
export function entryWhat(entry: TimelineEntry): string {
  switch (entry.kind) {
    case "update": {
      const sent = entry.notified ? ", sent to subscribers" : "";
      return `${entry.state ? `status ${entry.state}` : "update"}${sent}`;
    }
    case "heartbeat":
      return `heartbeat ${entry.state ?? ""}`.trim();
    case "error-group-first-seen":
      return entry.state === "new" ? "new error group" : "error group first seen";
    case "error-group-last-seen":
      return "error group last seen";
  }
}

/** The incident by its name (git's, else the status page's), its id after it. */
export function incidentTitle(incident: IncidentReportIncident): string {
  return incidentNamed({
    name: incident.definition?.name ?? incident.live?.name,
    incidentId: incident.id,
  });
}

/**
 * The incident's services by their names, `Checkout (svc-1)`: those the definition lists,
 * named as the status page names them, else as git does; without a definition, the page's.
 */
export function serviceNames(incident: IncidentReportIncident): string[] {
  const live = new Map((incident.live?.services ?? []).map((s) => [s.id, s.name ?? undefined]));
  const d = incident.definition;
  if (!d) return [...live].map(([id, name]) => named(name, [id]));
  const fromGit = d.serviceNames ?? {};
  return d.services.map((id) =>
    named(live.get(id) ?? (Object.hasOwn(fromGit, id) ? fromGit[id] : undefined), [id]),
  );
}

/** Where a timeline entry comes from, by name: the incident, or an evidence check or heartbeat. */
export function sourceNamed(
  entry: TimelineEntry,
  incident: IncidentReportIncident,
  checkNames: CheckNames,
): string {
  return entry.kind === "update" ? incidentTitle(incident) : checkNamed(entry.source, checkNames);
}

/** `MAJOR · live status MONITORING (declared MONITORING) · services a, b · file:line`. */
export function headline(incident: IncidentReportIncident): string {
  const d = incident.definition;
  const live = `live status ${incident.liveStatus ?? "unknown (no status in any update)"}`;
  const services = serviceNames(incident);
  if (!d) {
    return [
      live,
      ...(services.length ? [`services ${services.join(", ")}`] : []),
      "no definition under the definitions directory",
    ].join(" · ");
  }
  return [
    d.severity,
    `${live} (declared ${d.status})`,
    `services ${services.join(", ")}`,
    `${d.file}:${d.line}`,
  ].join(" · ");
}
