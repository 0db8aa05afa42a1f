import { incidentNamed } from "../../incident";
import { mdText } from "../../markdown";
import { safeLine } from "../../safe-text";
import { stateWithMeaning } from "../heartbeats/state";
import { type CheckNames, checkNamed } from "../shared/check-names";
import type { CheckEvidence, HeartbeatEvidence, IncidentEvidence } from "./read";

/** `02:10 UTC` on the same UTC day as now, else `2026-11-21 02:10 UTC`. */
function sinceText(iso: string, now: Date): string {
  const time = new Date(iso).toISOString();
  const clock = `${time.slice(11, 16)} UTC`;
  return time.slice(0, 10) === now.toISOString().slice(0, 10)
    ? clock
    : `${time.slice(0, 10)} ${clock}`;
}

function heartbeatText(h: HeartbeatEvidence, now: Date, names: CheckNames): string {
  const named = checkNamed(h.checkId, names);
  if (h.error) return `${named}: could not be read (${h.error})`;
  if (h.absent) return `${named}: may not exist (${h.absent})`;
  const state = h.found
    ? `${stateWithMeaning(h.state)} since ${h.since ? sinceText(h.since, now) : "an unknown time"}`
    : "no state change in 30 days";
  const ratio = h.successRatio24h === null ? "n/a" : `${Math.round(h.successRatio24h)}%`;
  return `${named} ${state}, success ${ratio} over 24 h`;
}

function checkText(c: CheckEvidence, names: CheckNames): string {
  const named = checkNamed(c.checkId, names);
  if (c.error) return `${named}: could not be read (${c.error})`;
  if (c.absent) return `${named}: may not exist (${c.absent})`;
  const fresh =
    c.newInLastHour === 0
      ? "no new error group in the last hour"
      : `${c.newInLastHour} new error group${c.newInLastHour === 1 ? "" : "s"} in the last hour`;
  const also = c.seenInLastHour > c.newInLastHour ? ` (${c.seenInLastHour} seen)` : "";
  return `${named}: ${fresh}${also}`;
}

/**
 * One short line of what an incident's monitors say now, e.g.
 * `hb-nightly-backup LATE (missed or failing) since 02:10 UTC, success 71% over 24 h; chk-api: 3 new error groups in the last hour`.
 */
export function evidenceLine(
  evidence: IncidentEvidence,
  now: Date,
  names: CheckNames = {},
): string {
  const parts = [
    ...evidence.heartbeats.map((h) => heartbeatText(h, now, names)),
    ...evidence.checks.map((c) => checkText(c, names)),
  ];
  return parts.length ? parts.join("; ") : "no evidence listed in its definition";
}

export interface EvidenceItem {
  incidentId: string;
  /** The incident's name and resource, as the line names it (`incidentNamed`). */
  name?: string;
  resource?: string;
  line: string;
}

/** The incident an evidence line is about, as every line names an incident. */
function itemNamed(item: EvidenceItem): string {
  return incidentNamed({ name: item.name, resource: item.resource, incidentId: item.incidentId });
}

/** The evidence section of the plan's pull-request comment. */
export function evidenceMarkdown(items: readonly EvidenceItem[], now: Date): string {
  if (items.length === 0) return "";
  return [
    "",
    `#### Evidence (monitoring API, ${now.toISOString().slice(0, 16).replace("T", " ")} UTC)`,
    "",
    ...items.map((item) => `- ${mdText(itemNamed(item))}: ${mdText(item.line)}`),
    "",
  ].join("\n");
}

/** The evidence section of the plan's text output, each line made safe for a terminal. */
export function evidenceText(items: readonly EvidenceItem[]): string {
  if (items.length === 0) return "";
  return [
    "",
    "Evidence (monitoring API):",
    ...items.map((i) => `  ${safeLine(itemNamed(i))}: ${safeLine(i.line)}`),
    "",
  ].join("\n");
}
