import type { OutputMap } from "@pulumi/pulumi/automation";
import { escapeLine, type HeartbeatStats, type IncidentUpdate } from "../api";
import { incidentNamed } from "../incident";
import { named } from "../named";
import { plural } from "../plural";
import {
  type DriftEntry,
  type HeartbeatSummary,
  type IncidentOutput,
  LIVE_COUNTS,
  type LiveCount,
  type SummaryOutput,
} from "./outputs";
import type { ErrorGroupsReadBack, Unavailable } from "./read-backs";

const value = <T>(outputs: OutputMap, key: string): T | undefined =>
  outputs[key]?.secret ? undefined : (outputs[key]?.value as T | undefined);

const isUnavailable = (entry: unknown): entry is Unavailable =>
  typeof entry === "object" && entry !== null && "unavailable" in entry;

const minute = (iso: string | null | undefined) => (iso ?? "").slice(0, 16).replace("T", " ");

/**
 * A success ratio as a person reads it; a period without pings has no ratio, and one the
 * API left out (the period or its ratio may be missing or null) is n/a.
 */
function ratio(stats: HeartbeatStats | null, period: "last24Hours" | "last7Days"): string {
  const current = stats?.[period];
  if (!current) return "n/a";
  if (current.totalEntitiesCurrentPeriod === 0) return "no pings";
  const value = current.successRatio?.currentPeriod;
  return value === undefined ? "n/a" : `${value}%`;
}

/**
 * The entries of a map of outputs in the order of their ids, as the engine stores maps, so
 * the summary reads the same whatever order the outputs were built in.
 */
function byId<T>(map: Record<string, T> | undefined): [string, T][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A section of read-backs by id under its title: each one's lines, or why it could not be
 * read; none without read-backs.
 */
function section<T>(
  title: string,
  readBacks: Record<string, T | Unavailable> | undefined,
  describe: (readBack: T) => [string, ...string[]],
): string[] {
  const entries = byId(readBacks);
  if (entries.length === 0) return [];
  return [
    title,
    ...entries.flatMap(([id, readBack]) => {
      if (isUnavailable(readBack)) return [`  ${id}  unavailable: ${readBack.unavailable}`];
      const [first, ...more] = describe(readBack);
      // The check by the name the checks list gave it, when it gave one.
      const name = (readBack as { name?: unknown }).name;
      return [`  ${named(typeof name === "string" ? name : undefined, [id])}  ${first}`, ...more];
    }),
  ];
}

/** Each incident with its declared and live status, labelled, and its latest updates. */
function incidentLines(
  incidents: [string, IncidentOutput][],
  updates: Record<string, IncidentUpdate[] | Unavailable>,
  latestUpdates: number,
): string[] {
  const lines = [
    `Incidents (${incidents.length}), as declared in git and as live on the status page:`,
  ];
  for (const [id, incident] of incidents) {
    const { declared, live } = incident;
    const liveText = isUnavailable(live)
      ? `live unknown (${live.unavailable})`
      : `live ${live.status ?? "unknown"}${live.source === "update" ? ` since ${minute(live.since)}` : ""}`;
    lines.push(
      `  ${incidentNamed({ name: declared.name, resource: incident.resource, incidentId: id })}  declared ${declared.status}, ${liveText}`,
    );
    lines.push(`      declared: ${declared.severity}  ${declared.name}`);
    lines.push(
      `      declared services: ${declared.services.map((service) => service.name ?? service.id).join(", ")}`,
    );
    const list = updates[id];
    for (const update of Array.isArray(list) ? list.slice(0, latestUpdates) : []) {
      const at = update.publicIncidentUpdateDate ?? update.created_at ?? "";
      lines.push(
        // Server text, on one line of the terminal or CI log it is printed to.
        `      latest update ${minute(at)}${update.status ? ` [${update.status}]` : ""}: ${escapeLine(update.description)}`,
      );
    }
  }
  return lines;
}

/** What each count is called: a record, so the compiler holds it to every count. */
const COUNTED: Record<LiveCount, string> = {
  INVESTIGATING: "INVESTIGATING",
  IDENTIFIED: "IDENTIFIED",
  MONITORING: "MONITORING",
  RESOLVED: "RESOLVED",
  unknown: "unknown",
  notRead: "not read",
};

/**
 * Counts as a person reads them, in the order of `LIVE_COUNTS` whatever order the engine gives
 * the output's keys, leaving out the zeros.
 */
function counts(byKey: Partial<Record<LiveCount, number>>): string {
  const shown = LIVE_COUNTS.flatMap((key) => {
    const count = byKey[key] ?? 0;
    return count > 0 ? [`${count} ${COUNTED[key]}`] : [];
  });
  return shown.length > 0 ? shown.join(", ") : "none";
}

/**
 * Which run the outputs are of, so the summary suggests what works there: a sandbox of
 * `up --emulator`, a stack `incident-sync up` ran, or (unset) any stack.
 */
export interface SummaryRun {
  /** The stack as the run was given it. */
  readonly stack: string;
  readonly sandbox: boolean;
}

/** Where each incident's detail is, in commands that work where the run was. */
function detailHint(run: SummaryRun | undefined): string {
  const missing = "Each incident's detail is not in the stack outputs:";
  if (run === undefined) {
    return `${missing} \`pulumi config set incident-sync:outputs full\` adds it from the next up, and \`incident-sync drift\` reads the status page now.`;
  }
  // A sandbox has no stack file of its own to set, and its emulator stops with the run.
  if (run.sandbox) {
    return `${missing} \`incident-sync up --emulator --stack ${run.stack} --outputs full\` shows it.`;
  }
  return `${missing} \`incident-sync up --stack ${run.stack} --outputs full\` shows it for one run, \`pulumi config set incident-sync:outputs full --stack ${run.stack}\` from every next up, and \`incident-sync drift\` reads the status page now.`;
}

/** The incidents counted by status, and where each incident's detail is. */
function countLines(summary: SummaryOutput, run: SummaryRun | undefined): string[] {
  return [
    `Incidents (${summary.incidents}), counted by status (incident-sync:outputs ${summary.outputs}):`,
    `  declared  ${counts(summary.declared)}`,
    `  live      ${counts(summary.live)}`,
    `  ${detailHint(run)}`,
  ];
}

/**
 * The stack outputs for a person: each incident's declared and live status (never one shown as
 * the other) or their counts, then heartbeats, error groups and drift.
 */
export function formatSummary(outputs: OutputMap, latestUpdates = 1, run?: SummaryRun): string {
  const incidents = value<Record<string, IncidentOutput>>(outputs, "incidents");
  const summary = value<SummaryOutput>(outputs, "summary");
  const lines =
    incidents === undefined && summary !== undefined
      ? countLines(summary, run)
      : incidentLines(
          byId(incidents),
          value<Record<string, IncidentUpdate[] | Unavailable>>(outputs, "incidentUpdates") ?? {},
          latestUpdates,
        );
  lines.push(
    ...section(
      "Heartbeats (success ratio, last 24 h / last 7 days):",
      value<Record<string, HeartbeatSummary | Unavailable>>(outputs, "heartbeats"),
      (heartbeat) => [
        `${ratio(heartbeat.stats, "last24Hours")} / ${ratio(heartbeat.stats, "last7Days")}  (${plural(heartbeat.eventCount, "event")} in ${heartbeat.windowHours} h)`,
      ],
    ),
    ...section(
      "Error groups (most recent first):",
      value<Record<string, ErrorGroupsReadBack | Unavailable>>(outputs, "errorGroups"),
      (groups) => [
        `${plural(groups.count, "group")}, ${groups.archivedCount} archived`,
        ...groups.top
          .slice(0, 3)
          .map((group) => `      ${minute(group.lastSeen)}  ${group.message}`),
      ],
    ),
  );
  const drift = value<DriftEntry[]>(outputs, "drift") ?? [];
  lines.push(
    drift.length === 0
      ? "Drift: none, the status page matches the definitions as far as the API shows (status and updates)."
      : `Drift (${drift.length}):`,
  );
  for (const entry of drift) {
    // Named as declared when the outputs hold each incident (`outputs: full`).
    const output = incidents?.[entry.incidentId];
    const incident = incidentNamed({
      name: output?.declared.name,
      resource: output?.resource,
      incidentId: entry.incidentId,
    });
    lines.push(
      entry.liveStatus === "unknown"
        ? `  ${incident}  declared ${entry.declaredStatus}, live unknown: ${entry.reason ?? ""}`
        : `  ${incident}  declared ${entry.declaredStatus}, live ${entry.liveStatus}, ${plural(entry.updatesOutsideGit.length, "update")} outside git since ${entry.appliedAt}`,
    );
  }
  return lines.join("\n");
}
