import { heartbeatStateClass } from "../../api/schemas";
import { currentState, timeByMeaning, utcText } from "../heartbeats/lane";
import { readableDuration } from "../html/chart-data";
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

/** `MAJOR · live status MONITORING (declared MONITORING) · services a, b · file:line`. */
export function headline(incident: IncidentReportIncident): string {
  const d = incident.definition;
  const live = `live status ${incident.liveStatus ?? "unknown (no status in any update)"}`;
  if (!d) return `${live} · no definition under the definitions directory`;
  return [
    d.severity,
    `${live} (declared ${d.status})`,
    `services ${d.services.join(", ")}`,
    `${d.file}:${d.line}`,
  ].join(" · ");
}
