import type { OutputMap } from "@pulumi/pulumi/automation";
import type { DriftEntry, ErrorGroupsReadBack, HeartbeatReadBack } from "./read-backs";

interface IncidentOut {
  id: string;
  name: string;
  severity: string;
  status: string;
  services: { id: string; name?: string }[];
}

interface UpdateOut {
  description: string;
  status?: string;
  created_at?: string;
  publicIncidentUpdateDate?: string;
}

const value = <T>(outputs: OutputMap, key: string): T | undefined =>
  outputs[key]?.secret ? undefined : (outputs[key]?.value as T | undefined);

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

const percent = (ratio: number | undefined) => (ratio === undefined ? "n/a" : `${ratio}%`);

/**
 * A short human summary of the stack outputs: each incident with its latest update, the
 * heartbeat success ratios, the top error groups and any drift.
 */
export function formatSummary(outputs: OutputMap, latestUpdates = 1): string {
  const lines: string[] = [];
  const incidents = Object.values(value<Record<string, IncidentOut>>(outputs, "incidents") ?? {});
  const updates = value<Record<string, UpdateOut[]>>(outputs, "incidentUpdates") ?? {};
  lines.push(`Incidents (${incidents.length}):`);
  for (const incident of incidents) {
    const services = incident.services.map((service) => service.name ?? service.id).join(", ");
    lines.push(`  ${incident.id}  ${incident.status}  ${incident.severity}  ${incident.name}`);
    lines.push(`      services: ${services}`);
    for (const update of (updates[incident.id] ?? []).slice(0, latestUpdates)) {
      const at = update.publicIncidentUpdateDate ?? update.created_at ?? "";
      lines.push(
        `      latest update ${at.slice(0, 16).replace("T", " ")}${update.status ? ` [${update.status}]` : ""}: ${update.description}`,
      );
    }
  }
  const heartbeats = Object.entries(
    value<Record<string, HeartbeatReadBack>>(outputs, "heartbeats") ?? {},
  );
  if (heartbeats.length > 0) {
    lines.push("Heartbeats (success ratio, last 24 h / last 7 days):");
    for (const [id, heartbeat] of heartbeats) {
      const day = heartbeat.stats?.last24Hours.successRatio.currentPeriod;
      const week = heartbeat.stats?.last7Days.successRatio.currentPeriod;
      lines.push(
        `  ${id}  ${percent(day)} / ${percent(week)}  (${plural(heartbeat.eventCount, "event")} in ${heartbeat.windowHours} h)`,
      );
    }
  }
  const groups = Object.entries(
    value<Record<string, ErrorGroupsReadBack>>(outputs, "errorGroups") ?? {},
  );
  if (groups.length > 0) {
    lines.push("Error groups (most recent first):");
    for (const [checkId, summary] of groups) {
      lines.push(
        `  ${checkId}  ${plural(summary.count, "group")}, ${summary.archivedCount} archived`,
      );
      for (const group of summary.top.slice(0, 3)) {
        lines.push(`      ${group.lastSeen.slice(0, 16).replace("T", " ")}  ${group.message}`);
      }
    }
  }
  const drift = value<DriftEntry[]>(outputs, "drift") ?? [];
  lines.push(
    drift.length === 0
      ? "Drift: none, the status page matches the definitions."
      : `Drift (${drift.length}):`,
  );
  for (const entry of drift) {
    lines.push(
      `  ${entry.incidentId}  declared ${entry.declaredStatus}, live ${entry.liveStatus}, ${entry.updatesOutsideGit.length} update(s) outside git since ${entry.appliedAt}`,
    );
  }
  return lines.join("\n");
}

/**
 * The incidents an `up` changed, one line each, taken from the engine's log, e.g.
 * `~ inc-api-errors updated [diff: ~status]`.
 */
export function changedIncidents(engineLog: string): string[] {
  const changed =
    /^\s*([+~-]|\+-)\s+pulumi-nodejs:dynamic\/incident-sync:Incident\s+(\S+)\s+(created|updated|deleted|replaced)\b[^[]*(\[diff:[^\]]*\])?/;
  return engineLog.split("\n").flatMap((line) => {
    const match = changed.exec(line);
    return match ? [`${match[1]} ${match[2]} ${match[3]}${match[4] ? ` ${match[4]}` : ""}`] : [];
  });
}
