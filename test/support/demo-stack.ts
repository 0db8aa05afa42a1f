import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { createClient, NotFoundError } from "../../src/api";
import { loadDefinitions } from "../../src/definitions";
import type { SummaryOutput } from "../../src/program";
import { computeDrift } from "../../src/reports";
import type { AppliedRecord } from "../../src/reports/drift/applied";
import { incidentRows } from "../engine/support/emulator-rows";
import type { EmulatorSandbox } from "../engine/support/emulator-sandbox";

/**
 * The checks a test of the demo stack makes against the emulator, whether the engine runs the
 * stack (test/engine) or Pulumi's mocks do (test/program): its definitions in
 * `<project>/incidents`, the emulator's demo account on the other side.
 */
/** The stack outputs of `incident-sync:outputs summary` (the default), sorted. */
export const SUMMARY_OUTPUT_KEYS = ["accountId", "drift", "errorGroups", "heartbeats", "summary"];

/**
 * The demo's new incident: its definition has no id, and the first `up` opens it with its
 * first update (notifying the subscribers), then posts its second.
 */
export const DEMO_NEW_INCIDENT = {
  resource: "card-payments-declined",
  name: "Some card payments are declined",
  updates: 2,
} as const;

/** The demo's incidents: the four it adopts and the one it opens. */
export const DEMO_INCIDENTS = 5;

/** The demo stack's `summary` output once every definition is applied and in sync. */
export const DEMO_SUMMARY_IN_SYNC: SummaryOutput = {
  outputs: "summary",
  incidents: DEMO_INCIDENTS,
  declared: { INVESTIGATING: 1, IDENTIFIED: 1, MONITORING: 1, RESOLVED: 2 },
  live: { INVESTIGATING: 1, IDENTIFIED: 1, MONITORING: 1, RESOLVED: 2, unknown: 0, notRead: 0 },
  drifted: 0,
};

/**
 * The lines of `incident-sync up`'s summary (`formatSummary`) a test compares: the section
 * heads, each incident's and heartbeat's line and the counts, not the error groups' detail.
 */
export function summaryLinesOf(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^( {2}inc-| {2}[0-9a-f]{8}-| {2}hb-| {2}\w+ |\w)/.test(line))
    .filter((line) => !/ \d+ groups?, \d+ archived$/.test(line));
}

/** Those lines for the demo stack under `incident-sync:outputs summary`, once in sync. */
export const DEMO_SUMMARY_LINES = [
  "Incidents (5), counted by status (incident-sync:outputs summary):",
  "  declared  1 INVESTIGATING, 1 IDENTIFIED, 1 MONITORING, 2 RESOLVED",
  "  live      1 INVESTIGATING, 1 IDENTIFIED, 1 MONITORING, 2 RESOLVED",
  "  Each incident's detail is not in the stack outputs: `pulumi config set incident-sync:outputs full` adds it from the next up, and `incident-sync drift` reads the status page now.",
  "Heartbeats (success ratio, last 24 h / last 7 days):",
  "  Billing sync to the ledger (hb-billing-sync)  84.62% / 85.71%  (3 events in 24 h)",
  "  Nightly database backup (hb-nightly-backup)  no pings / 80%  (1 event in 24 h)",
  "Error groups (most recent first):",
  "Drift: none, the status page matches the definitions as far as the API shows (status and updates).",
];

export function demoStack(sandbox: EmulatorSandbox, project: () => string) {
  const { emulator, db } = sandbox;
  const account = emulator.demo.accountId;
  const incidentsDir = () => join(project(), "incidents");
  const client = () =>
    createClient({ baseUrl: emulator.url, accountId: account, apiKey: emulator.demo.apiKey });
  return {
    /** The incidents as the emulator holds them. */
    live: () => incidentRows(db, account),
    client,
    /**
     * Every definition is live as declared: name, severity, status and services; a new
     * incident (no id) is found by its name, opened once.
     */
    async expectLiveMatchesDefinitions() {
      const { definitions, problems } = await loadDefinitions(incidentsDir());
      expect(problems).toEqual([]);
      const rows = incidentRows(db, account);
      for (const { definition } of definitions) {
        const named = [...rows.values()].filter((row) => row.name === definition.name);
        if (definition.id === undefined) expect(named, definition.resource).toHaveLength(1);
        expect(rows.get(definition.id ?? named[0]?.id ?? "")).toMatchObject({
          name: definition.name,
          severity: definition.severity,
          status: definition.status,
          services: definition.services.map((service) => service.id),
        });
      }
    },
    /** Rewrites a definition file; the change must change it. */
    edit(file: string, change: (text: string) => string) {
      const path = join(incidentsDir(), file);
      const text = readFileSync(path, "utf8");
      const changed = change(text);
      expect(changed, `the edit of ${file} changes nothing`).not.toBe(text);
      writeFileSync(path, changed);
    },
    /** `incident-sync drift --applied` with these applied statuses. */
    async driftWith(applied: Map<string, AppliedRecord>) {
      const { definitions } = await loadDefinitions(incidentsDir());
      return computeDrift(client().incidents, definitions, {
        applied,
        isNotFound: (error) => error instanceof NotFoundError,
      });
    },
  };
}

/** What `pulumi stack output incidents` tells `incident-sync drift --applied`. */
export function appliedOf(incidents: unknown): Map<string, AppliedRecord> {
  return new Map(
    Object.entries(incidents as Record<string, { applied: AppliedRecord; resource?: string }>).map(
      ([id, entry]) => [
        id,
        { ...entry.applied, ...(entry.resource ? { resource: entry.resource } : {}) },
      ],
    ),
  );
}
