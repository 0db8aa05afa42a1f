import { describe, expect, it } from "vitest";
import type { IncidentStatus, IncidentUpdate } from "../../src/api";
import { IncidentDefinition } from "../../src/definitions/schema";
import { incidentReadBack } from "../../src/program";
import type { ReadIncident } from "../../src/program/incident-reads";
import { heartbeatsSummary, summaryOf } from "../../src/program/outputs";
import type { ReadBack } from "../../src/program/read-backs";

const APPLIED_AT = "2026-01-01T10:00:00.000Z";
const LATER = "2026-01-01T11:00:00.000Z";

const definition = (id: string, status: IncidentStatus) =>
  IncidentDefinition.parse({
    id,
    name: `Incident ${id}`,
    severity: "MAJOR",
    status,
    services: [{ id: "svc-api", name: "Public API" }],
  });

const update = (status: string, at = LATER): IncidentUpdate => ({
  id: `upd-${status}-${at}`,
  description: `Now ${status}`,
  status,
  publicIncidentUpdateDate: at,
  created_at: at,
  notifySubscribers: false,
});

/** One incident's read-back: declared `declared`, last applied as declared, then `read`. */
const readBack = (id: string, declared: IncidentStatus, read: ReadBack<IncidentUpdate[]>) =>
  incidentReadBack(
    definition(id, declared),
    `incidents/${id}.yaml`,
    { incidentId: id, status: declared, appliedAt: APPLIED_AT, appliedUpdates: [] },
    read.ok ? { ok: true, value: { id, updates: read.value } satisfies ReadIncident } : read,
  );

describe("the summary output", () => {
  it("counts the incidents by declared and live status, every key present, the live counts adding up to the incidents", () => {
    const incidents = [
      readBack("inc-a", "INVESTIGATING", { ok: true, value: [] }),
      readBack("inc-b", "MONITORING", { ok: true, value: [update("MONITORING")] }),
      readBack("inc-c", "RESOLVED", { ok: true, value: [update("RESOLVED")] }),
      readBack("inc-d", "RESOLVED", { ok: true, value: [] }),
    ];
    expect(summaryOf(incidents, "summary")).toEqual({
      outputs: "summary",
      incidents: 4,
      declared: { INVESTIGATING: 1, IDENTIFIED: 0, MONITORING: 1, RESOLVED: 2 },
      live: { INVESTIGATING: 1, IDENTIFIED: 0, MONITORING: 1, RESOLVED: 2, unknown: 0, notRead: 0 },
      drifted: 0,
    });
  });

  it("counts a changed live status as drifted, a failed read or a status it does not know as unknown, and a skipped read as not read", () => {
    const incidents = [
      // Resolved on the status page after the last apply: drift.
      readBack("inc-drifted", "INVESTIGATING", { ok: true, value: [update("RESOLVED")] }),
      readBack("inc-failed", "MONITORING", { ok: false, missing: false, reason: "503" }),
      readBack("inc-gone", "MONITORING", { ok: false, missing: true, reason: "404" }),
      readBack("inc-odd", "IDENTIFIED", { ok: true, value: [update("PAUSED")] }),
      readBack("inc-skipped", "RESOLVED", {
        ok: false,
        missing: false,
        skipped: true,
        reason: "not read (readBack: open reads only incidents declared open)",
      }),
    ];
    const summary = summaryOf(incidents, "full");
    expect(summary).toEqual({
      outputs: "full",
      incidents: 5,
      declared: { INVESTIGATING: 1, IDENTIFIED: 1, MONITORING: 2, RESOLVED: 1 },
      live: { INVESTIGATING: 0, IDENTIFIED: 0, MONITORING: 0, RESOLVED: 1, unknown: 3, notRead: 1 },
      drifted: 1,
    });
    // The same incidents `drift` lists: the drifted one and each unknown.
    const drift = incidents.flatMap((incident) => (incident.drift ? [incident.drift] : []));
    expect(drift.map((entry) => [entry.incidentId, entry.liveStatus])).toEqual([
      ["inc-drifted", "RESOLVED"],
      ["inc-failed", "unknown"],
      ["inc-gone", "unknown"],
      ["inc-odd", "unknown"],
    ]);
  });

  it("counts no incidents as zeros", () => {
    expect(summaryOf([], "summary")).toMatchObject({
      incidents: 0,
      live: { RESOLVED: 0, unknown: 0, notRead: 0 },
      drifted: 0,
    });
  });

  it("keeps each heartbeat's window, count and stats without its events, and an unavailable one as it is", () => {
    const stats = { last24Hours: { totalEntitiesCurrentPeriod: 0 }, last7Days: null };
    expect(
      heartbeatsSummary({
        "hb-a": { windowHours: 24, eventCount: 1, events: [{ id: "hbe-1" }], stats },
        "hb-b": { unavailable: "heartbeat hb-b does not exist" },
      }),
    ).toEqual({
      "hb-a": { windowHours: 24, eventCount: 1, stats },
      "hb-b": { unavailable: "heartbeat hb-b does not exist" },
    });
  });
});
