import type { OutputMap } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import {
  type DriftEntry,
  formatSummary,
  type IncidentOutput,
  type SummaryOutput,
} from "../../src/program";

const outputMap = (outputs: Record<string, unknown>): OutputMap =>
  Object.fromEntries(
    Object.entries(outputs).map(([key, value]) => [key, { value, secret: false }]),
  );

const drift: DriftEntry[] = [
  {
    incidentId: "inc-checkout",
    file: "incidents/checkout.yaml",
    declaredStatus: "INVESTIGATING",
    liveStatus: "RESOLVED",
    state: "drifted",
    appliedAt: "2026-01-01T10:00:00.000Z",
    updatesOutsideGit: [
      {
        id: "upd-1",
        at: "2026-01-01T11:00:00.000Z",
        status: "RESOLVED",
        description: "Fixed by hand",
        class: "drift",
      },
    ],
  },
  {
    incidentId: "inc-api",
    file: "incidents/api.yaml",
    declaredStatus: "MONITORING",
    liveStatus: "unknown",
    state: "unknown",
    appliedAt: "2026-01-01T10:00:00.000Z",
    updatesOutsideGit: [],
    reason: "GET /v1/status-pages/incidents/inc-api/incident-updates failed: 503",
  },
];

const summary: SummaryOutput = {
  outputs: "summary",
  incidents: 200,
  declared: { INVESTIGATING: 30, IDENTIFIED: 0, MONITORING: 20, RESOLVED: 150 },
  live: {
    INVESTIGATING: 29,
    IDENTIFIED: 0,
    MONITORING: 19,
    RESOLVED: 101,
    unknown: 1,
    notRead: 50,
  },
  drifted: 1,
};

const heartbeats = {
  "hb-backup": {
    windowHours: 24,
    eventCount: 2,
    stats: {
      last24Hours: { totalEntitiesCurrentPeriod: 2, successRatio: { currentPeriod: 50 } },
      last7Days: { totalEntitiesCurrentPeriod: 9, successRatio: { currentPeriod: 88.89 } },
    },
  },
};

describe("the summary of an up's outputs", () => {
  it("without per-incident outputs, counts the incidents by status and says where each one's detail is", () => {
    expect(
      formatSummary(outputMap({ accountId: "acct-1", summary, drift, heartbeats })),
    ).toMatchInlineSnapshot(`
        "Incidents (200), counted by status (incident-sync:outputs summary):
          declared  30 INVESTIGATING, 20 MONITORING, 150 RESOLVED
          live      29 INVESTIGATING, 19 MONITORING, 101 RESOLVED, 1 unknown, 50 not read
          Each incident's detail is not in the stack outputs: \`pulumi config set incident-sync:outputs full\` adds it from the next up, and \`incident-sync drift\` reads the status page now.
        Heartbeats (success ratio, last 24 h / last 7 days):
          hb-backup  50% / 88.89%  (2 events in 24 h)
        Drift (2):
          inc-checkout  declared INVESTIGATING, live RESOLVED, 1 update outside git since 2026-01-01T10:00:00.000Z
          inc-api  declared MONITORING, live unknown: GET /v1/status-pages/incidents/inc-api/incident-updates failed: 503"
      `);
  });

  it("in a sandbox, suggests only a command that works there: none that needs a stack file or login of the team's", () => {
    const hint = (run?: { stack: string; sandbox: boolean }) =>
      formatSummary(outputMap({ summary, drift: [] }), 1, run)
        .split("\n")
        .find((line) => line.includes("detail is not in the stack outputs")) ?? "";
    const sandbox = hint({ stack: "dev", sandbox: true });
    expect(sandbox).toContain("`incident-sync up --emulator --stack dev --outputs full`");
    expect(sandbox).not.toMatch(/pulumi config|incident-sync drift/);
    // A stack of the team's: the command names the stack it was run on.
    const team = hint({ stack: "acme/prod", sandbox: false });
    expect(team).toContain("`incident-sync up --stack acme/prod --outputs full`");
    expect(team).toContain("`pulumi config set incident-sync:outputs full --stack acme/prod`");
  });

  it("with a stack of no incidents, says none", () => {
    const empty: SummaryOutput = {
      ...summary,
      incidents: 0,
      declared: { INVESTIGATING: 0, IDENTIFIED: 0, MONITORING: 0, RESOLVED: 0 },
      live: { INVESTIGATING: 0, IDENTIFIED: 0, MONITORING: 0, RESOLVED: 0, unknown: 0, notRead: 0 },
      drifted: 0,
    };
    expect(
      formatSummary(outputMap({ summary: empty, drift: [] }))
        .split("\n")
        .slice(0, 3),
    ).toMatchInlineSnapshot(`
        [
          "Incidents (0), counted by status (incident-sync:outputs summary):",
          "  declared  none",
          "  live      none",
        ]
      `);
  });

  it("with the per-incident outputs of outputs full, lists each incident and its latest update, not the counts", () => {
    const incident: IncidentOutput = {
      file: "incidents/checkout.yaml",
      resource: "checkout",
      declared: {
        name: "Checkout is slow",
        severity: "MAJOR",
        status: "INVESTIGATING",
        services: [{ id: "svc-checkout", name: "Checkout" }],
      },
      applied: { status: "INVESTIGATING", at: "2026-01-01T10:00:00.000Z" },
      live: { status: "RESOLVED", source: "update", since: "2026-01-01T11:00:00.000Z" },
    };
    const outputs = outputMap({
      summary: { ...summary, outputs: "full", incidents: 1 },
      incidents: { "inc-checkout": incident },
      incidentUpdates: {
        "inc-checkout": [
          {
            id: "upd-1",
            description: "Fixed by hand",
            status: "RESOLVED",
            publicIncidentUpdateDate: "2026-01-01T11:00:00.000Z",
          },
        ],
      },
      heartbeats: { "hb-backup": { ...heartbeats["hb-backup"], events: [{ id: "hbe-1" }] } },
      drift: drift.slice(0, 1),
    });
    expect(formatSummary(outputs)).toMatchInlineSnapshot(`
      "Incidents (1), as declared in git and as live on the status page:
        Checkout is slow (checkout, inc-checkout)  declared INVESTIGATING, live RESOLVED since 2026-01-01 11:00
            declared: MAJOR  Checkout is slow
            declared services: Checkout
            latest update 2026-01-01 11:00 [RESOLVED]: Fixed by hand
      Heartbeats (success ratio, last 24 h / last 7 days):
        hb-backup  50% / 88.89%  (2 events in 24 h)
      Drift (1):
        Checkout is slow (checkout, inc-checkout)  declared INVESTIGATING, live RESOLVED, 1 update outside git since 2026-01-01T10:00:00.000Z"
    `);
  });
});
