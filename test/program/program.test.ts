import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import program from "../../index";
import { loadDefinitions } from "../../src/definitions";
import type { PutStatus } from "../../src/emulator";
import type { IncidentStep } from "../../src/engine/engine-events";
import { markPageChanges, markPreviewRefusals } from "../../src/engine/preview-refusals";
import { formatSummary, type SummaryOutput } from "../../src/program";
import type { AppliedRecord } from "../../src/reports/drift/applied";
import {
  appliedOf,
  DEMO_NEW_INCIDENT,
  DEMO_SUMMARY_IN_SYNC,
  DEMO_SUMMARY_LINES,
  SUMMARY_OUTPUT_KEYS,
  summaryLinesOf,
} from "../support/demo-stack";
import { changesOf, failuresOf, type MockEngine, type MockRun } from "./support/mock-engine";
import { type ProgramStack, startProgramStack } from "./support/program-stack";

/**
 * The Pulumi program (`index.ts`) and the provider's operations, in process under Pulumi's
 * unit-test mocks, against the emulator over HTTP: one stack driven step by step as a team
 * uses it, under each PUT behaviour the service may have. What only the real engine shows
 * (its report, state files, deletes' rendering, locks) is in test/engine.
 */
describe.each<PutStatus>(["posts-update", "sets-field"])(
  "the program in process, with a service whose PUT %s",
  (putStatus) => {
    let started: ProgramStack;
    let engine: MockEngine;
    let project: string;

    const control = () => started.sandbox.emulator.emulator.control;
    const account = () => started.sandbox.emulator.demo.accountId;
    const live = () => started.stack.live();
    const edit = (file: string, change: (text: string) => string) =>
      started.stack.edit(file, change);
    const expectLiveMatchesDefinitions = () => started.stack.expectLiveMatchesDefinitions();
    const up = (settings: Record<string, string> = {}) => engine.run(program, { settings });
    const preview = (settings: Record<string, string> = {}) =>
      engine.run(program, { settings, preview: true });
    const changed = (run: MockRun) =>
      run.steps
        .filter((step) => step.op !== "same")
        .map(({ name, op, diffs }) => ({ name, op, diffs }));

    beforeAll(async () => {
      started = await startProgramStack(`program-${putStatus}`, putStatus);
      ({ engine, project } = started);
    });

    afterAll(async () => {
      await started?.close();
    });

    const summaryLines = (outputs: Record<string, unknown>) =>
      summaryLinesOf(
        formatSummary(
          Object.fromEntries(
            Object.entries(outputs).map(([key, value]) => [key, { value, secret: false }]),
          ),
        ),
      );

    it("adopts every definition, and by default exports counts, drift and evidence but no per-incident outputs", async () => {
      control().resetStats();
      const run = await up();
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({ create: 5 });
      await expectLiveMatchesDefinitions();
      const outputs = run.outputs ?? {};
      expect(Object.keys(outputs).sort()).toEqual(SUMMARY_OUTPUT_KEYS);
      expect(outputs.accountId).toBe(account());
      expect(outputs.summary).toEqual(DEMO_SUMMARY_IN_SYNC);
      expect(outputs.drift).toEqual([]);
      // The heartbeats keep their window, count and stats; their events stay on the API.
      const heartbeats = outputs.heartbeats as Record<string, object>;
      expect(Object.keys(heartbeats).sort()).toEqual(["hb-billing-sync", "hb-nightly-backup"]);
      expect(Object.keys(heartbeats["hb-billing-sync"] ?? {}).sort()).toEqual([
        "eventCount",
        "name",
        "stats",
        "windowHours",
      ]);
      // Each by the name the checks list gives it, read once for the run.
      expect(heartbeats["hb-billing-sync"]).toMatchObject({ name: "Billing sync to the ledger" });
      expect(control().stats().byOperation.listChecks?.total).toBe(1);
      expect(Object.keys(outputs.errorGroups as object).sort()).toEqual([
        "chk-api",
        "chk-checkout",
        "chk-web",
      ]);
      expect(summaryLines(outputs)).toEqual(DEMO_SUMMARY_LINES);
    });

    it("with outputs full, also exports every incident, labelling declared and live values, its updates and the heartbeats' events", async () => {
      const run = await up({ outputs: "full" });
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({});
      const outputs = run.outputs ?? {};
      expect(Object.keys(outputs).sort()).toEqual([
        "accountId",
        "drift",
        "errorGroups",
        "heartbeats",
        "incidentUpdates",
        "incidents",
        "summary",
      ]);
      expect(outputs.summary).toMatchObject({ outputs: "full", incidents: 5, drifted: 0 });
      // The new incident is named by the id the service gave it.
      const opened = engine.stateOf(DEMO_NEW_INCIDENT.resource)?.incidentId ?? "";
      expect(opened).toMatch(/^[0-9a-f-]{36}$/);
      expect(Object.keys(outputs.incidents as object).sort()).toEqual([
        opened,
        "inc-api-errors",
        "inc-checkout-latency",
        "inc-db-maintenance",
        "inc-login-failures",
      ]);
      expect((outputs.incidents as Record<string, unknown>)[opened]).toMatchObject({
        file: "incidents/card-payments.yaml",
        resource: DEMO_NEW_INCIDENT.resource,
        declared: { status: "IDENTIFIED" },
        live: { status: "IDENTIFIED" },
      });
      expect((outputs.incidents as Record<string, unknown>)["inc-db-maintenance"]).toMatchObject({
        file: "incidents/db-maintenance.yaml",
        declared: { status: "RESOLVED" },
        applied: { status: "RESOLVED" },
        live: { status: "RESOLVED" },
      });
      const updates = outputs.incidentUpdates as Record<string, { description: string }[]>;
      expect(updates["inc-db-maintenance"]?.[0]?.description).toBe(
        "Maintenance finished, all systems nominal.",
      );
      const heartbeats = outputs.heartbeats as Record<string, { events: unknown[] }>;
      expect(heartbeats["hb-billing-sync"]?.events).toHaveLength(3);
      expect(summaryLines(outputs)).toEqual([
        "Incidents (5), as declared in git and as live on the status page:",
        // Each by its name, then its resource (where it differs from the id) and id.
        `  Some card payments are declined (card-payments-declined, ${opened})  declared IDENTIFIED, live IDENTIFIED`,
        "  Elevated error rate on the public API (inc-api-errors)  declared MONITORING, live MONITORING",
        "  Slow checkout for some customers in EU (inc-checkout-latency)  declared INVESTIGATING, live INVESTIGATING",
        "  Scheduled database maintenance (db-maintenance, inc-db-maintenance)  declared RESOLVED, live RESOLVED",
        "  Some users cannot log in with SSO (inc-login-failures)  declared RESOLVED, live RESOLVED",
        "Heartbeats (success ratio, last 24 h / last 7 days):",
        "  Billing sync to the ledger (hb-billing-sync)  84.62% / 85.71%  (3 events in 24 h)",
        "  Nightly database backup (hb-nightly-backup)  no pings / 80%  (1 event in 24 h)",
        "Error groups (most recent first):",
        "Drift: none, the status page matches the definitions as far as the API shows (status and updates).",
      ]);
    });

    it("finds nothing to change on a second up, at one read of the incident list for the four and no write", async () => {
      control().resetStats();
      const run = await up();
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({});
      const { byOperation } = control().stats();
      expect(byOperation.listIncidents?.total).toBe(1);
      expect(byOperation.listIncidentUpdates).toBeUndefined();
      expect(byOperation.getIncident).toBeUndefined();
      expect(byOperation.updateIncident).toBeUndefined();
    });

    it("puts back in one up a status changed on the status page by an update, without a refresh", async () => {
      control().appendIncidentUpdate(account(), "inc-checkout-latency", {
        description: "Mitigated by hand from the UI",
        status: "MONITORING",
      });
      const previewed = await preview();
      expect(changed(previewed)).toEqual([
        { name: "inc-checkout-latency", op: "update", diffs: ["observed"] },
      ]);
      const run = await up();
      expect(changesOf(run)).toEqual({ update: 1 });
      expect(live().get("inc-checkout-latency")?.status).toBe("INVESTIGATING");
      expect(run.outputs?.drift).toEqual([]);
      expect(changesOf(await up())).toEqual({});
    });

    it("reverts an edit on the status page of name, severity, services and status, and one of the name alone, without enforce always", async () => {
      const before = live().get("inc-api-errors");
      control().editIncident(account(), "inc-api-errors", {
        name: "Renamed in the UI",
        severity: "CRITICAL",
        services: ["svc-api"],
        status: "IDENTIFIED",
      });
      const run = await up();
      expect(changesOf(run)).toEqual({ update: 1 });
      expect(live().get("inc-api-errors")).toEqual(before);
      expect(changesOf(await up())).toEqual({});
      // A rename on the status page posts no update: the read of the whole incident sees it.
      control().editIncident(account(), "inc-api-errors", { name: "Renamed quietly" });
      expect(changesOf(await up())).toEqual({ update: 1 });
      expect(live().get("inc-api-errors")).toEqual(before);
      expect(changesOf(await up())).toEqual({});
      control().resetStats();
      const enforced = await up({ enforce: "always" });
      expect(changesOf(enforced)).toEqual({ update: 5 });
      expect(live().get("inc-api-errors")).toEqual(before);
      expect(control().stats().byOperation.updateIncident?.total).toBeGreaterThanOrEqual(4);
    });

    it("under onPageChange refuse, fails an incident renamed on the status page before any write, naming the name old → new, and keeps the page as it is; revert puts git's back", async () => {
      const before = live().get("inc-api-errors");
      control().editIncident(account(), "inc-api-errors", { name: "Renamed by support" });
      control().resetStats();
      const refused = await up({ onPageChange: "refuse" });
      expect(changesOf(refused)).toEqual({});
      expect(
        failuresOf(refused).map((failure) => failure.replace(/at \S+Z/, "at <time>")),
      ).toMatchInlineSnapshot(`
        [
          "inc-api-errors: incident inc-api-errors was changed on the status page at <time> (name "Renamed by support" → "Elevated error rate on the public API"), and onPageChange is refuse, so nothing was sent and the page keeps the change. Take it into git (name: "Renamed by support" in its definition) and run again, or set incident-sync:onPageChange to revert to put git's values back.",
        ]
      `);
      expect(control().stats().byOperation.updateIncident?.total ?? 0).toBe(0);
      expect(live().get("inc-api-errors")?.name).toBe("Renamed by support");
      // The default, revert: git's name back in one up, then nothing to do.
      expect(changesOf(await up())).toEqual({ update: 1 });
      expect(live().get("inc-api-errors")).toEqual(before);
      expect(changesOf(await up({ onPageChange: "refuse" }))).toEqual({});
    });

    it("knows an incident its resource opened, renamed on the status page, by the id its state records: preview fails it old → new under refuse, up refuses it with its page change before any write, and revert puts git's name back", async () => {
      const { resource, name } = DEMO_NEW_INCIDENT;
      const opened = engine.stateOf(resource)?.incidentId ?? "";
      expect(opened).toMatch(/^[0-9a-f-]{36}$/);
      control().editIncident(account(), opened, { name: "Card payments (support)" });
      /** The incident's update step as the engine reports it to the run report. */
      const reported = (run: MockRun, previous = engine.stateOf(resource)): IncidentStep => {
        const step = run.steps.find((candidate) => candidate.name === resource);
        return {
          resource,
          incidentId: opened,
          op: step?.op === "update" ? "update" : "same",
          diffs: step?.diffs ?? [],
          warnings: [],
          ...(step?.error === undefined ? {} : { error: step.error }),
          previous: { ...previous },
          inputs: { ...engine.inputsOf(resource) },
        };
      };
      const change = `name "Card payments (support)" → "${name}"`;
      const previewed = reported(await preview({ onPageChange: "refuse" }));
      markPageChanges([previewed]);
      expect(markPreviewRefusals([previewed], "refuse")).toEqual([previewed]);
      expect(previewed.error).toContain(`incident ${opened} was changed on the status page at`);
      expect(previewed.pageChanges?.fields).toEqual([
        { field: "name", page: "Card payments (support)", git: name },
      ]);
      control().resetStats();
      const refusedRun = await up({ onPageChange: "refuse" });
      expect(failuresOf(refusedRun)).toEqual([expect.stringContaining(change)]);
      const refused = reported(refusedRun);
      markPageChanges([refused]);
      // What makes up exit 3: the failed step carries the page change it was refused for.
      expect(refused.pageChanges?.fields.map((field) => field.field)).toEqual(["name"]);
      expect(control().stats().byOperation.updateIncident?.total ?? 0).toBe(0);
      expect(live().get(opened)?.name).toBe("Card payments (support)");
      const last = engine.stateOf(resource);
      const reverted = await up();
      expect(changesOf(reverted)).toEqual({ update: 1 });
      const put = reported(reverted, last);
      markPageChanges([put]);
      expect(put.pageChanges?.fields).toEqual([
        { field: "name", page: "Card payments (support)", git: name },
      ]);
      expect(live().get(opened)?.name).toBe(name);
      expect(changesOf(await up({ onPageChange: "refuse" }))).toEqual({});
    });

    it("reads back every incident with readBack all, and only those declared open with readBack open", async () => {
      const { definitions } = await loadDefinitions(join(project, "incidents"));
      const open = definitions.filter(({ definition }) => definition.status !== "RESOLVED");
      expect(open.length).toBeGreaterThan(0);
      expect(open.length).toBeLessThan(definitions.length);
      const readsIn = async (settings: Record<string, string>) => {
        control().resetStats();
        const run = await up(settings);
        expect(changesOf(run)).toEqual({});
        return {
          reads: control().stats().total,
          drift: run.outputs?.drift,
          live: (run.outputs?.summary as SummaryOutput | undefined)?.live,
        };
      };
      // One page of the list holds the four, whichever are wanted; the evidence reads follow.
      const all = await readsIn({ readBack: "all" });
      expect(all).toMatchObject({ drift: [], live: { unknown: 0, notRead: 0 } });
      // Not reading the resolved ones is on purpose: no drift entry says "unknown" for them,
      // and the summary counts them apart.
      const openOnly = await readsIn({ readBack: "open" });
      expect(openOnly).toMatchObject({
        drift: [],
        live: { RESOLVED: 0, unknown: 0, notRead: definitions.length - open.length },
      });
      expect(openOnly.reads).toBe(all.reads);
    });

    it("previews a YAML edit as exactly the changed fields, and a reordering of services as no change", async () => {
      edit("storefront.yaml", (text) =>
        text
          .replace(
            "name: Slow checkout for some customers in EU",
            "name: Slow checkout for all customers in EU",
          )
          .replace("severity: MEDIUM", "severity: MAJOR"),
      );
      expect(changed(await preview())).toEqual([
        { name: "inc-checkout-latency", op: "update", diffs: ["name", "severity"] },
      ]);
      expect(changesOf(await up())).toEqual({ update: 1 });
      await expectLiveMatchesDefinitions();
      edit("api-errors.yaml", (text) =>
        text.replace(
          "  - id: svc-api\n    name: Public API\n  - id: svc-web\n    name: Web app\n",
          "  - id: svc-web\n    name: Web app\n  - id: svc-api\n    name: Public API\n",
        ),
      );
      expect(changed(await preview())).toEqual([]);
    });

    it("names an incident the account does not have in its check, and applies nothing for it", async () => {
      const file = join(project, "incidents", "unknown.yaml");
      writeFileSync(
        file,
        "id: inc-does-not-exist\nname: Nobody made me\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [svc-api]\n",
      );
      try {
        const run = await up();
        expect(failuresOf(run)).toEqual([
          'inc-does-not-exist: Incident "inc-does-not-exist" does not exist in account "acct-demo". Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident.',
        ]);
        expect(live().has("inc-does-not-exist")).toBe(false);
      } finally {
        rmSync(file);
      }
      expect(changed(await preview())).toEqual([]);
    });

    it("refuses to reopen an incident resolved on the status page, and applies the others", async () => {
      edit("db-maintenance.yaml", (text) =>
        text.replace("name: Scheduled database maintenance", "name: Database maintenance"),
      );
      control().editIncident(account(), "inc-checkout-latency", { status: "RESOLVED" });
      const run = await up();
      // The status page posts an update for the resolve, so the refusal names it.
      const byUpdate = ' at \\S+ by update \\S+ \\("Status changed to RESOLVED"\\)';
      expect(failuresOf(run)).toHaveLength(1);
      expect(failuresOf(run)[0]).toMatch(
        new RegExp(
          `^inc-checkout-latency: incident inc-checkout-latency was resolved on the status page${byUpdate}, but its definition says \\w+: applying it would reopen the incident in front of customers\\. Set "status: RESOLVED" in the definition, or add "reopen: true" to reopen it on purpose\\.$`,
        ),
      );
      expect(live().get("inc-checkout-latency")?.status).toBe("RESOLVED");
      expect(live().get("inc-db-maintenance")?.name).toBe("Database maintenance");
      edit("storefront.yaml", (text) =>
        text.replace(/(id: inc-checkout-latency[\s\S]*?)status: \w+/, "$1status: RESOLVED"),
      );
      const accepted = await up();
      expect(accepted.error).toBeUndefined();
      expect(live().get("inc-checkout-latency")?.status).toBe("RESOLVED");
    });

    it("keeps going when every read-back fails: up succeeds, names the file and request, and drift says unknown", async () => {
      control().setFaults({ failRate: 1 });
      let run: MockRun;
      try {
        run = await up({ retries: "0" });
      } finally {
        control().setFaults({});
      }
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({});
      const readWarnings = run.warnings.filter((warning) =>
        warning.includes("could not read incident"),
      );
      // The list failed, so each incident was read alone, and that failed too: the opened one
      // by the id its apply gave it.
      expect(readWarnings).toHaveLength(5);
      for (const warning of readWarnings) {
        expect(warning).toMatch(
          /^incidents\/\S+\.yaml:\d+: could not read incident \S+, so this run cannot see changes made on the status page \(the live status is unknown\): GET \/v1\/status-pages\/incidents\/[^/\s]+ failed: 503/,
        );
      }
      const drift = run.outputs?.drift as { liveStatus: string }[];
      expect(drift.map((entry) => entry.liveStatus)).toEqual(Array(5).fill("unknown"));
      expect(run.outputs?.summary).toMatchObject({
        incidents: 5,
        live: { INVESTIGATING: 0, MONITORING: 0, RESOLVED: 0, unknown: 5, notRead: 0 },
        drifted: 0,
      });
    });

    it("warns about an evidence heartbeat that does not exist, naming its file and line, and fails with strictEvidence", async () => {
      edit("db-maintenance.yaml", (text) =>
        text.replace("heartbeats: [hb-nightly-backup]", "heartbeats: [hb-typo]"),
      );
      const message =
        'evidence heartbeat "hb-typo" does not exist in the account; it is listed at incidents/db-maintenance.yaml:5 (incident Database maintenance (db-maintenance, inc-db-maintenance)). Fix the id in evidence.heartbeats, or remove it.';
      try {
        const run = await up();
        expect(run.error).toBeUndefined();
        expect(run.warnings).toContain(message);
        expect(run.outputs?.heartbeats).toMatchObject({
          "hb-typo": { unavailable: "heartbeat hb-typo does not exist" },
        });
        const strict = await up({ strictEvidence: "true" });
        expect(strict.error).toBe(message);
      } finally {
        edit("db-maintenance.yaml", (text) =>
          text.replace("heartbeats: [hb-typo]", "heartbeats: [hb-nightly-backup]"),
        );
      }
    });

    it("fails the run with every problem listed, as validate prints them, before anything is sent", async () => {
      const file = join(project, "incidents", "bad.yaml");
      writeFileSync(
        file,
        "id: inc-bad\nname: Broken\nsevrity: MAJOR\nstatus: INVESTIGATING\nservices: [svc-api]\n",
      );
      control().resetStats();
      try {
        const run = await up();
        expect(run.error).toContain(
          'incidents/bad.yaml:3:1: unknown field "sevrity"; did you mean "severity"? [unknown-key]',
        );
        expect(run.steps).toEqual([]);
        expect(control().stats().total).toBe(0);
      } finally {
        rmSync(file);
      }
    });

    it("refuses a maintenance window it cannot apply yet, at its file and line, before anything is sent (issue 50)", async () => {
      const file = join(project, "incidents", "window.yaml");
      writeFileSync(
        file,
        "kind: maintenance\nresource: db-upgrade\nname: Database upgrade\nstartsAt: 2026-12-04T02:00:00Z\nendsAt: 2026-12-04T04:00:00Z\n",
      );
      control().resetStats();
      try {
        const run = await up();
        expect(run.error).toContain(
          "incidents/window.yaml:1:1: maintenance windows (kind: maintenance) are checked by validate, but up, preview, refresh and plan do not take them yet",
        );
        expect(run.steps).toEqual([]);
        expect(control().stats().total).toBe(0);
      } finally {
        rmSync(file);
      }
    });
  },
);

/**
 * The service does not document whether a PUT that changes `lastUpdateStatus` posts a status
 * update or only sets the field: under each, `up` converges in one run, a second `up` changes
 * nothing, drift with the stack's applied statuses and refresh tell the truth, and the reopen
 * guard holds. `npm run reliability` runs the same on the real engine (test/reliability/put-status.test.ts).
 */
describe.each<PutStatus>(["posts-update", "sets-field"])(
  "converging in process, with a service whose PUT %s",
  (putStatus) => {
    let started: ProgramStack;
    let engine: MockEngine;

    const account = () => started.sandbox.emulator.demo.accountId;
    const live = () => started.stack.live();
    const client = () => started.stack.client();
    const setStatus = (file: string, from: string, to: string) =>
      started.stack.edit(file, (text) => {
        expect(text).toContain(`status: ${from}`);
        return text.replace(`status: ${from}`, `status: ${to}`);
      });
    // What `pulumi stack output incidents` gives `incident-sync drift --applied`, which a stack
    // exports with `outputs: full`.
    const up = () => engine.run(program, { settings: { outputs: "full" } });
    const outputsApplied = (run: MockRun) => appliedOf(run.outputs?.incidents);
    const driftWith = (applied: Map<string, AppliedRecord>) => started.stack.driftWith(applied);

    beforeAll(async () => {
      started = await startProgramStack(`converge-${putStatus}`, putStatus);
      ({ engine } = started);
    });

    afterAll(async () => {
      await started?.close();
    });

    it("adopts an incident whose live status its updates do not show, converging in the one up", async () => {
      // Someone set the status with a PUT before incident-sync managed the incident: under
      // sets-field its updates still say INVESTIGATING, the declared status.
      const answer = await client().incidents.update("inc-checkout-latency", {
        name: "Slow checkout",
        severity: "MEDIUM",
        services: [{ id: "svc-checkout", name: "Checkout", accountId: account() }],
        lastUpdateStatus: "IDENTIFIED",
      });
      expect(answer.incidentUpdates.some((u) => u.status === "IDENTIFIED")).toBe(
        putStatus === "posts-update",
      );
      const run = await up();
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({ create: 5 });
      await started.stack.expectLiveMatchesDefinitions();
      expect(run.outputs?.drift).toEqual([]);
    });

    it("applies a status change from git in one up, then changes nothing on the next; drift with the applied statuses is in sync", async () => {
      setStatus("storefront.yaml", "INVESTIGATING", "MONITORING");
      const run = await up();
      expect(changesOf(run)).toEqual({ update: 1 });
      expect(live().get("inc-checkout-latency")?.status).toBe("MONITORING");
      expect(run.outputs?.drift).toEqual([]);
      const again = await up();
      expect(changesOf(again)).toEqual({});
      const report = await driftWith(outputsApplied(again));
      expect(report.summary).toMatchObject({ definitions: 5, inSync: 5, drifted: 0 });
    });

    it("refuses to reopen an incident resolved on the status page; drift and refresh see the resolve", async () => {
      const lastApply = outputsApplied(await up());
      started.sandbox.emulator.emulator.control.editIncident(account(), "inc-checkout-latency", {
        status: "RESOLVED",
      });
      const run = await up();
      expect(failuresOf(run).join("\n")).toContain(
        "inc-checkout-latency was resolved on the status page",
      );
      expect(live().get("inc-checkout-latency")?.status).toBe("RESOLVED");
      const report = await driftWith(lastApply);
      expect(report.definitions.find((d) => d.id === "inc-checkout-latency")).toMatchObject({
        state: "drifted",
        liveStatus: "RESOLVED",
      });
      expect(report.summary).toMatchObject({ inSync: 4, drifted: 1 });
      const refreshed = await engine.refresh();
      // Every refresh records when it read the live status; only one incident's status moved.
      const moved = refreshed.filter((step) => step.diffs?.includes("status"));
      expect(moved.map((step) => step.name)).toEqual(["inc-checkout-latency"]);
      expect(engine.stateOf("inc-checkout-latency")?.status).toBe("RESOLVED");
    });
  },
);

/**
 * The third PUT behaviour the service may have: it ignores `lastUpdateStatus`. A status that
 * did not take is never reported applied: the incident fails saying what the service kept and
 * what to do, the state keeps the last apply, and every next run sends it again.
 */
describe("converging in process, with a service whose PUT ignores the status", () => {
  let started: ProgramStack;
  let engine: MockEngine;

  const setStatus = (file: string, from: string, to: string) =>
    started.stack.edit(file, (text) => {
      expect(text).toContain(`status: ${from}`);
      return text.replace(`status: ${from}`, `status: ${to}`);
    });
  const up = () => engine.run(program);

  beforeAll(async () => {
    started = await startProgramStack("converge-ignores", "ignores");
    ({ engine } = started);
  });

  afterAll(async () => {
    await started?.close();
  });

  it("fails the incident whose status did not take, saying what the service kept, and tries again on the next up", async () => {
    const adopted = await up();
    expect(adopted.error).toBeUndefined();
    expect(failuresOf(adopted)).toEqual([]);
    setStatus("storefront.yaml", "INVESTIGATING", "MONITORING");

    const run = await up();
    expect(changesOf(run)).toEqual({});
    const [failure, ...others] = failuresOf(run);
    expect(others).toEqual([]);
    expect(failure).toMatchInlineSnapshot(
      `"inc-checkout-latency: incident inc-checkout-latency: the service answered the PUT with status "INVESTIGATING", not what was sent (status MONITORING): it did not take the change, and nothing is recorded as applied. The next run sends it again. If the status keeps not taking, this service's PUT ignores lastUpdateStatus: declare the incident's status with \`updates:\` (an update posted with that status, as the service's own tools change it), or set it on the status page."`,
    );
    expect(started.stack.live().get("inc-checkout-latency")?.status).toBe("INVESTIGATING");
    expect(engine.stateOf("inc-checkout-latency")?.status).toBe("INVESTIGATING");

    // The next run sends it again; once the service takes it, the incident converges.
    const again = await up();
    expect(failuresOf(again)).toHaveLength(1);
    started.sandbox.emulator.emulator.control.setBehaviour({ putStatus: "sets-field" });
    const taken = await up();
    expect(failuresOf(taken)).toEqual([]);
    expect(changesOf(taken)).toEqual({ update: 1 });
    expect(started.stack.live().get("inc-checkout-latency")?.status).toBe("MONITORING");
  });
});

/**
 * Lean answers (behaviour `answers: lean`): the service leaves out every field its contract
 * lets it, so a posted update comes back as its description alone and an incident's updates
 * without their statuses. Nothing customers read is sent twice, and the run converges.
 */
describe("in process, with a service that answers lean", () => {
  let started: ProgramStack;
  let engine: MockEngine;
  const control = () => started.sandbox.emulator.emulator.control;

  beforeAll(async () => {
    started = await startProgramStack("lean", "posts-update");
    ({ engine } = started);
    control().setBehaviour({ answers: "lean" });
  });

  afterAll(async () => {
    await started?.close();
  });

  it("posts each update of a new incident once, though its answer names no id, and then changes nothing", async () => {
    control().resetStats();
    const run = await engine.run(program);
    expect(failuresOf(run)).toEqual([]);
    expect(changesOf(run)).toEqual({ create: 5 });
    // The first update opens the incident; the second is posted alone, once.
    expect(control().stats().byOperation.postIncidentUpdate?.total).toBe(
      DEMO_NEW_INCIDENT.updates - 1,
    );
    const opened = engine.stateOf(DEMO_NEW_INCIDENT.resource);
    const notified = control()
      .notifications(started.sandbox.emulator.demo.accountId)
      .filter((sent) => sent.incidentId === opened?.incidentId);
    expect(notified).toHaveLength(1);
    expect(opened?.updateIds).toHaveLength(DEMO_NEW_INCIDENT.updates);
    expect(opened?.updateIds?.every((id) => id !== "")).toBe(true);

    control().resetStats();
    const again = await engine.run(program);
    expect(failuresOf(again)).toEqual([]);
    expect(changesOf(again)).toEqual({});
    expect(control().stats().byOperation.postIncidentUpdate).toBeUndefined();
  });
});
