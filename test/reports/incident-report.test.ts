import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReportIncident } from "../../src/cli/commands/report-incident";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { IncidentReport, type IncidentReportIncident } from "../../src/reports";
import { apiEnv, captureIo, startSeededEmulator, tempDir } from "./support/harness";
import { FLAPPY_PINGS, HEARTBEATS } from "./support/heartbeat-seed";
import { renderedMarkdownTables } from "./support/markdown";

const HOUR = 3_600_000;
const ROOT = path.resolve(".");

let demo: RunningEmulator;
let flappy: RunningEmulator;

beforeAll(async () => {
  demo = await startEmulator({ port: 0, seed: "demo" });
  flappy = await startSeededEmulator({
    heartbeats: HEARTBEATS,
    incidents: [
      {
        id: "inc-sync",
        name: "Sync keeps failing",
        severity: "MEDIUM",
        services: ["svc-api"],
        created_at: "-23h",
        updates: [
          {
            description: "The sync fails every other run.",
            status: "INVESTIGATING",
            created_at: "-23h",
          },
          { description: "A flaky DNS resolver.", status: "IDENTIFIED", created_at: "-12h" },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await demo?.close();
  await flappy?.close();
});

const demoEnv = () => ({ MONITORING_API_URL: demo.url, MONITORING_API_KEY: demo.demo.apiKey });

async function report(
  ids: string[],
  options: Partial<Parameters<typeof runReportIncident>[0]> = {},
  env: NodeJS.ProcessEnv = demoEnv(),
) {
  const capture = captureIo(env, ROOT);
  const code = await runReportIncident(
    { ids, dir: "incidents", margin: "1h", format: "json", ...options },
    capture.io,
  );
  return { code, ...capture };
}

async function json(
  ids: string[],
  options: Parameters<typeof report>[1] = {},
  env?: NodeJS.ProcessEnv,
) {
  const { stdout } = await report(ids, { ...options, format: "json" }, env);
  return IncidentReport.parse(JSON.parse(stdout()));
}

const ms = (iso: string | null) => Date.parse(iso ?? "");

function kinds(incident: IncidentReportIncident) {
  return incident.timeline.map((e) => `${e.kind}:${e.source}:${e.state ?? ""}`);
}

describe("report incident, on the demo seed", () => {
  test("inc-api-errors: three status updates and the API check's three new error groups on one axis, the web check's earlier group beside them", async () => {
    const [incident] = (await json(["inc-api-errors"])).incidents;

    expect(incident?.definition).toMatchObject({
      file: path.join("incidents", "api-errors.yaml"),
      name: "Elevated error rate on the public API",
      severity: "MAJOR",
      status: "MONITORING",
      services: ["svc-api", "svc-web"],
    });
    expect(incident?.liveStatus).toBe("MONITORING");
    expect(incident?.resolvedAt).toBeNull();
    expect(incident?.evidence).toEqual({ heartbeats: [], checks: ["chk-api", "chk-web"] });
    expect(ms(incident!.window.from)).toBe(ms(incident!.startedAt) - HOUR);
    expect(incident?.updates.map((u) => u.status)).toEqual([
      "INVESTIGATING",
      "IDENTIFIED",
      "MONITORING",
    ]);
    const [api, web] = incident!.checks;
    expect(api?.groups).toHaveLength(3);
    expect(api?.groups.every((g) => g.newDuringIncident)).toBe(true);
    expect(web?.groups.map((g) => g.newDuringIncident)).toEqual([false]);
    expect(kinds(incident!)).toEqual([
      "error-group-first-seen:chk-web:earlier",
      "update:inc-api-errors:INVESTIGATING",
      "error-group-first-seen:chk-api:new",
      "error-group-first-seen:chk-api:new",
      "error-group-last-seen:chk-api:new",
      "error-group-last-seen:chk-api:new",
      "update:inc-api-errors:IDENTIFIED",
      "error-group-first-seen:chk-api:new",
      "error-group-last-seen:chk-api:new",
      "update:inc-api-errors:MONITORING",
    ]);
    const times = incident!.timeline.map((e) => ms(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  test("inc-db-maintenance: resolved, so the window ends an hour after the resolution; the backup heartbeat was failing before and pinged on time after", async () => {
    const [incident] = (await json(["inc-db-maintenance"])).incidents;

    expect(incident?.liveStatus).toBe("RESOLVED");
    expect(ms(incident!.resolvedAt) - ms(incident!.startedAt)).toBe(2 * HOUR);
    expect(ms(incident!.window.to)).toBe(ms(incident!.resolvedAt) + HOUR);
    const [backup] = incident!.heartbeats;
    expect(backup?.lastEventBefore?.state).toBe("FAILING");
    expect(backup?.events.map((e) => e.state)).toEqual(["RECEIVED"]);
    expect(backup?.timeInState).toEqual({ FAILING: 0.25, RECEIVED: 0.75 });
    expect(kinds(incident!)).toEqual([
      "update:inc-db-maintenance:MONITORING",
      "heartbeat:hb-nightly-backup:RECEIVED",
      "update:inc-db-maintenance:RESOLVED",
    ]);
  });

  test("inc-checkout-latency: the new payment errors are marked, the expired-certificate group from days before is only counted", async () => {
    const [incident] = (await json(["inc-checkout-latency"])).incidents;

    const [checkout] = incident!.checks;
    expect(
      checkout?.groups.map((g) => [g.cleanedErrorMessage.slice(0, 4), g.newDuringIncident]),
    ).toEqual([["POST", true]]);
    expect(checkout?.groupsOutsideWindow).toBe(1);
    const [billing] = incident!.heartbeats;
    expect(billing?.lastEventBefore?.state).toBe("RECEIVED");
    expect(billing?.timeInState).toEqual({ RECEIVED: 1 });
    expect(billing?.stateAtEnd).toMatchObject({ state: "RECEIVED", meaning: "arrived" });
    expect(billing?.stats?.last24Hours?.successRatio?.currentPeriod).toBeGreaterThan(0);
  });

  test("several incidents in one report, each with its own window", async () => {
    const parsed = await json(["inc-api-errors", "inc-login-failures"]);
    expect(parsed.incidents.map((i) => [i.id, i.liveStatus, i.evidence])).toEqual([
      ["inc-api-errors", "MONITORING", { heartbeats: [], checks: ["chk-api", "chk-web"] }],
      ["inc-login-failures", "RESOLVED", { heartbeats: [], checks: [] }],
    ]);
    expect(parsed.incidents[0]?.window).not.toEqual(parsed.incidents[1]?.window);
  });

  test("an incident not under git takes its evidence from --heartbeat and --check, and --from sets the window", async () => {
    const empty = await tempDir("no-definitions");
    const { stderr, stdout } = await report(["inc-login-failures"], {
      dir: path.join(empty, "incidents"),
      check: ["chk-web"],
      heartbeat: ["hb-billing-sync"],
      from: "7h",
      to: "now",
    });
    const [incident] = IncidentReport.parse(JSON.parse(stdout())).incidents;

    expect(incident?.definition).toBeNull();
    expect(incident?.liveStatus).toBe("RESOLVED");
    expect(incident?.evidence).toEqual({ heartbeats: ["hb-billing-sync"], checks: ["chk-web"] });
    expect(incident?.window.marginMs).toBeNull();
    expect(ms(incident!.window.to) - ms(incident!.window.from)).toBe(7 * HOUR);
    expect(incident?.checks[0]?.groups).toHaveLength(1);
    expect(stderr()).toContain("evidence comes only from --heartbeat and --check");
  });

  test("the Markdown report tells the story in a timeline table a renderer reads as written", async () => {
    const { stdout } = await report(["inc-api-errors"], { format: "md" });

    const [evidence, timeline, groups] = renderedMarkdownTables(stdout());
    // Checks by the names the checks list gives them, the id after each.
    expect(evidence?.rows.map((r) => r[0])).toEqual([
      "Public API orders (chk-api)",
      "Web login page (chk-web)",
    ]);
    expect(timeline?.headers).toEqual(["Time", "Source", "What", "Detail"]);
    expect(timeline?.rows.map((r) => r[2])).toEqual([
      "error group first seen",
      "status INVESTIGATING, sent to subscribers",
      "new error group",
      "new error group",
      "error group last seen",
      "error group last seen",
      "status IDENTIFIED, sent to subscribers",
      "new error group",
      "error group last seen",
      "status MONITORING",
    ]);
    expect(timeline?.rows[2]?.[3]).toBe(
      "Timeout of <n>ms exceeded for https://api.example.com/orders/<id>?<query>",
    );
    expect(groups?.rows.map((r) => r[5])).toEqual(["new", "new", "new", "seen before"]);
    expect(new Set(timeline?.rows.map((r) => r[1]))).toEqual(
      new Set([
        "Elevated error rate on the public API (inc-api-errors)",
        "Public API orders (chk-api)",
        "Web login page (chk-web)",
      ]),
    );
    expect(stdout()).toContain("## Elevated error rate on the public API (inc-api-errors)");
    // The services by the names the definition and the status page give them.
    expect(stdout()).toContain("services Public API (svc-api), Web app (svc-web)");
  });

  test("the CSV report has one row per timeline entry of every incident", async () => {
    const { stdout } = await report(["inc-api-errors", "inc-db-maintenance"], { format: "csv" });

    const rows = parse(stdout(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      "incidentId",
      "at",
      "kind",
      "source",
      "state",
      "ref",
      "notified",
      "text",
    ]);
    expect(rows.filter((r) => r.incidentId === "inc-api-errors")).toHaveLength(10);
    expect(rows.filter((r) => r.incidentId === "inc-db-maintenance")).toHaveLength(3);
  });

  test("an unknown incident and an empty window are refused with what to do", async () => {
    await expect(report(["inc-nope"])).rejects.toThrowErrorMatchingInlineSnapshot(
      `[IncidentNotFoundError: Incident "inc-nope" does not exist in this account (its updates answer 404). Check the id, and that MONITORING_API_KEY belongs to the incident's account.]`,
    );
    await expect(
      report(["inc-api-errors"], { from: "2h", to: "3h", now: new Date("2026-11-23T12:00:00Z") }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `[WindowError: The window would be empty: it starts at 2026-11-23T10:00:00.000Z and ends at 2026-11-23T09:00:00.000Z; give a --from before --to.]`,
    );
    await expect(
      report(["inc-api-errors"], { margin: "an hour" }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(
      `[WindowError: --margin "an hour" is not a duration; use minutes, hours, days or weeks: 30m, 1h, 2d, 1w.]`,
    );
  });
});

describe("report incident, heartbeat events past the API's 10-per-call cap", () => {
  test("all 45 state changes of a flapping heartbeat since the incident began are on the timeline", async () => {
    const parsed = await json(
      ["inc-sync"],
      { heartbeat: ["hb-flappy"], dir: "does-not-exist" },
      apiEnv(flappy),
    );
    const [incident] = parsed.incidents;

    const [heartbeat] = incident!.heartbeats;
    expect(heartbeat?.events).toHaveLength(FLAPPY_PINGS.length);
    expect(incident?.timeline.filter((e) => e.kind === "heartbeat")).toHaveLength(45);
    expect(heartbeat?.lastEventBefore?.state).toBe("FAILING");
    expect(heartbeat!.timeInState.RECEIVED! + heartbeat!.timeInState.FAILING!).toBeCloseTo(1, 5);
  });
});
