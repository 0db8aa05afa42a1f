import { codeSpan, mdText } from "../../markdown";
import { safeLine } from "../../safe-text";
import { stateWithMeaning } from "../heartbeats/state";
import type { CheckEvidence, HeartbeatEvidence, IncidentEvidence } from "./read";

/** `02:10 UTC` on the same UTC day as now, else `2026-11-21 02:10 UTC`. */
function sinceText(iso: string, now: Date): string {
  const time = new Date(iso).toISOString();
  const clock = `${time.slice(11, 16)} UTC`;
  return time.slice(0, 10) === now.toISOString().slice(0, 10)
    ? clock
    : `${time.slice(0, 10)} ${clock}`;
}

function heartbeatText(h: HeartbeatEvidence, now: Date): string {
  if (h.error) return `${h.checkId}: could not be read (${h.error})`;
  if (h.absent) return `${h.checkId}: may not exist (${h.absent})`;
  const state = h.found
    ? `${stateWithMeaning(h.state)} since ${h.since ? sinceText(h.since, now) : "an unknown time"}`
    : "no state change in 30 days";
  const ratio = h.successRatio24h === null ? "n/a" : `${Math.round(h.successRatio24h)}%`;
  return `${h.checkId} ${state}, success ${ratio} over 24 h`;
}

function checkText(c: CheckEvidence): string {
  if (c.error) return `${c.checkId}: could not be read (${c.error})`;
  if (c.absent) return `${c.checkId}: may not exist (${c.absent})`;
  const fresh =
    c.newInLastHour === 0
      ? "no new error group in the last hour"
      : `${c.newInLastHour} new error group${c.newInLastHour === 1 ? "" : "s"} in the last hour`;
  const also = c.seenInLastHour > c.newInLastHour ? ` (${c.seenInLastHour} seen)` : "";
  return `${c.checkId}: ${fresh}${also}`;
}

/**
 * One short line of what an incident's monitors say now, e.g.
 * `hb-nightly-backup LATE (missed or failing) since 02:10 UTC, success 71% over 24 h; chk-api: 3 new error groups in the last hour`.
 */
export function evidenceLine(evidence: IncidentEvidence, now: Date): string {
  const parts = [
    ...evidence.heartbeats.map((h) => heartbeatText(h, now)),
    ...evidence.checks.map(checkText),
  ];
  return parts.length ? parts.join("; ") : "no evidence listed in its definition";
}

export interface EvidenceItem {
  incidentId: string;
  line: string;
}

/** The evidence section of the plan's pull-request comment. */
export function evidenceMarkdown(items: readonly EvidenceItem[], now: Date): string {
  if (items.length === 0) return "";
  return [
    "",
    `#### Evidence (monitoring API, ${now.toISOString().slice(0, 16).replace("T", " ")} UTC)`,
    "",
    ...items.map((item) => `- ${codeSpan(item.incidentId)}: ${mdText(item.line)}`),
    "",
  ].join("\n");
}

/** The evidence section of the plan's text output, each line made safe for a terminal. */
export function evidenceText(items: readonly EvidenceItem[]): string {
  if (items.length === 0) return "";
  return [
    "",
    "Evidence (monitoring API):",
    ...items.map((i) => `  ${safeLine(i.incidentId)}: ${safeLine(i.line)}`),
    "",
  ].join("\n");
}
