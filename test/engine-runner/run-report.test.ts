import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import type { OperationOutcome } from "../../src/engine";
import { type IncidentStep, summarizeEvents } from "../../src/engine/engine-events";
import { markPageChanges, markPreviewRefusals } from "../../src/engine/preview-refusals";
import { exitCodeOf, renderMarkdown, renderText, reportOf } from "../../src/engine/run-report";
import {
  INCIDENT_TYPE,
  type IncidentInputs,
  type IncidentRecord,
  observe,
  refusalBeforeApply,
} from "../../src/incident";
import type { OnPageChange } from "../../src/settings";
import { bareGuids } from "../support/named-lines";

const refused =
  'PUT /v1/status-pages/incidents/inc-api-errors failed: 400 Bad Request: services[0].id "svc-typo" is not a service of account acct-demo';

/** An up in which one incident's PUT failed and the engine then printed the outputs' diff. */
function failedUp(steps: IncidentStep[], stdout: string): OperationOutcome {
  return {
    kind: "ran",
    stackName: "prod",
    definitions: [],
    outputs: undefined,
    result: {
      operation: "up",
      ok: false,
      exitCode: 255,
      changed: true,
      durationMs: 4200,
      incidents: steps,
      diagnostics: [],
      changes: {},
      durationSeconds: 4,
      stdout,
      stderr: "",
    },
  };
}

const outputsDiff = [
  "Outputs:",
  "  ~ summary: {",
  "      ~ declared: {",
  "          ~ MAJOR: 1 => 2",
  "        }",
  "    }",
].join("\n");

describe("the run report of a failed incident", () => {
  it("shows it as failed, its error first and last, and not the engine's outputs diff", () => {
    const outcome = failedUp(
      [
        {
          resource: "api-errors",
          incidentId: "inc-api-errors",
          op: "update",
          diffs: ["services"],
          error: refused,
          warnings: [],
          inputs: { incidentId: "inc-api-errors", name: "Elevated error rate on the public API" },
        },
        // A step the engine reported no inputs of: known by its resource and id alone.
        { resource: "db", incidentId: "inc-db", op: "update", diffs: ["name"], warnings: [] },
      ],
      outputsDiff,
    );
    expect(renderText(outcome, "/project").replace(/\d+\.\d s/, "<s> s")).toMatchInlineSnapshot(`
      "✗ Elevated error rate on the public API (api-errors, inc-api-errors): PUT /v1/status-pages/incidents/inc-api-errors failed: 400 Bad Request: services[0].id "svc-typo" is not a service of account acct-demo

      Stack prod: up failed (1 not updated, 1 updated; <s> s)
        ✗ Elevated error rate on the public API (api-errors, inc-api-errors) not updated [services]
        ~ db (inc-db) updated [name]

      ✗ Elevated error rate on the public API (api-errors, inc-api-errors): PUT /v1/status-pages/incidents/inc-api-errors failed: 400 Bad Request: services[0].id "svc-typo" is not a service of account acct-demo
      "
    `);
    expect(reportOf(outcome, "/project").incidents.map((incident) => incident.action)).toEqual([
      "not updated",
      "updated",
    ]);
    expect(renderMarkdown(outcome, "/project")).toContain(
      "| Elevated error rate on the public API (api-errors, inc-api-errors) | not updated | services |",
    );
  });

  it("says what a preview cannot do, in the preview's words", () => {
    const outcome = failedUp(
      [
        {
          resource: "inc-x",
          incidentId: "inc-x",
          op: "create",
          diffs: [],
          error: "refused",
          warnings: [],
        },
      ],
      "",
    );
    if (outcome.kind === "ran") outcome.result.operation = "preview";
    expect(reportOf(outcome, "/project").incidents[0]?.action).toBe("cannot adopt");
  });

  it("says an incident is opened only when its inputs name a resource and no id", () => {
    const step = (inputs: Record<string, unknown> | undefined, error?: string): IncidentStep => ({
      resource: "card-payments",
      op: "create",
      diffs: [],
      warnings: [],
      ...(inputs ? { inputs } : {}),
      ...(error ? { error } : {}),
    });
    const actions = (steps: IncidentStep[]) =>
      reportOf(failedUp(steps, ""), "/project").incidents.map((incident) => incident.action);
    expect(
      actions([
        // Opened: the step's id comes from the state the create wrote.
        {
          ...step({ resource: "card-payments" }),
          incidentId: "5b1c0d6e-0000-4000-8000-000000000001",
        },
        step({ resource: "card-payments" }, "refused"),
        step({ incidentId: "inc-x" }),
        // Left out of the apply for want of a record: no inputs of its own.
        step(undefined, "not recorded"),
        step({}, "not recorded"),
      ]),
    ).toEqual(["opened", "not opened", "adopted", "not adopted", "not adopted"]);
  });

  it("says opened for an incident opened whatever failed after, and for one opened after a claim", () => {
    const id = "5b1c0d6e-0000-4000-8000-000000000001";
    const inputs = { resource: "card-payments" };
    const opened = failedUp(
      [
        // Its second update's post failed: the state kept the incident the create opened.
        {
          resource: "card-payments",
          incidentId: id,
          keptIncidentId: id,
          op: "create",
          diffs: [],
          warnings: [],
          inputs,
          error: "updates[1] was not posted",
        },
        // Claimed by incident-sync up, then opened by its apply.
        {
          resource: "sms-down",
          incidentId: "5b1c0d6e-0000-4000-8000-000000000002",
          op: "update",
          diffs: ["claimOnly"],
          warnings: [],
          inputs: { resource: "sms-down", name: "SMS are not delivered" },
          previous: { incidentId: "", claimed: true },
        },
        {
          resource: "fax-down",
          op: "update",
          diffs: [],
          warnings: [],
          inputs: { resource: "fax-down" },
          previous: { incidentId: "", claimed: true },
          error: "refused",
        },
        {
          resource: "db",
          incidentId: "inc-db",
          op: "update",
          diffs: ["name"],
          warnings: [],
          inputs: { resource: "db" },
          previous: { incidentId: "inc-db" },
        },
      ],
      "",
    );
    expect(reportOf(opened, "/project").incidents.map((incident) => incident.action)).toEqual([
      "opened",
      "opened",
      "not opened",
      "updated",
    ]);
    const text = renderText(opened, "/project");
    expect(text).toContain("(1 not opened, 2 opened, 1 updated;");
    expect(text).toContain(
      "  + SMS are not delivered (sms-down, 5b1c0d6e-0000-4000-8000-000000000002) opened",
    );
  });

  it("says opened, from the engine's events, for an incident opened whose later post failed", () => {
    /** The events of one failed step: its start, its failure with what it kept, its reason. */
    const failedStep = (
      resource: string,
      step: { op: "create" | "update"; previous?: Record<string, unknown>; kept: string },
      reason: string,
      sequence: number,
    ) => {
      const urn = `urn:pulumi:prod::incident-sync::${INCIDENT_TYPE}::${resource}`;
      const old = step.previous && { inputs: { resource }, outputs: step.previous };
      const metadata = { urn, type: INCIDENT_TYPE, op: step.op, ...(old ? { old } : {}) };
      return [
        {
          sequence,
          timestamp: sequence,
          resourcePreEvent: { metadata: { ...metadata, new: { inputs: { resource } } } },
        },
        {
          sequence: sequence + 1,
          timestamp: sequence + 1,
          resOpFailedEvent: {
            metadata: { ...metadata, new: { inputs: {}, outputs: { incidentId: step.kept } } },
          },
        },
        {
          sequence: sequence + 2,
          timestamp: sequence + 2,
          diagnosticEvent: {
            urn,
            severity: "error",
            message: `error: 1 error occurred:\n\t* ${reason}\n\n`,
            color: "never",
          },
        },
      ];
    };
    const first = "5b1c0d6e-0000-4000-8000-000000000001";
    const claimed = "5b1c0d6e-0000-4000-8000-000000000002";
    const events = [
      // Opened, and the post of its first update failed.
      ...failedStep(
        "card-payments",
        { op: "create", kept: first },
        `incident ${first}: updates[0] was not posted: 500 Internal Server Error`,
        1,
      ),
      // Claimed by incident-sync up, opened by its apply, and a later entry's post failed.
      ...failedStep(
        "sms-down",
        { op: "update", previous: { incidentId: "", claimed: true }, kept: claimed },
        `incident ${claimed}: updates[2] was not posted: 500 Internal Server Error`,
        4,
      ),
      // A create that got no answer keeps its intent, not an incident.
      ...failedStep(
        "fax-down",
        { op: "create", kept: "" },
        "(new: fax-down): the service did not answer the request that opens it",
        7,
      ),
    ] as unknown as EngineEvent[];
    const outcome = failedUp(summarizeEvents(events).incidents, "");
    expect(
      reportOf(outcome, "/project").incidents.map(({ resource, incidentId, action }) => ({
        resource,
        incidentId,
        action,
      })),
    ).toEqual([
      { resource: "card-payments", incidentId: first, action: "opened" },
      { resource: "sms-down", incidentId: claimed, action: "opened" },
      { resource: "fax-down", incidentId: null, action: "not opened" },
    ]);
    const text = renderText(outcome, "/project");
    expect(text).toContain("up failed (1 not opened, 2 opened;");
    expect(text).toContain(`✗ card-payments (${first}) opened`);
    expect(text).toContain(`✗ card-payments (${first}): incident ${first}: updates[0]`);
  });

  it("names the status page as a change's reason only when nothing git declares changed", () => {
    const updated = (resource: string, diffs: string[]): IncidentStep => ({
      resource,
      incidentId: resource,
      op: "update",
      diffs,
      warnings: [],
    });
    const outcome = failedUp(
      [
        // git changed the severity; the observation differs after the last apply's own PUT.
        updated("inc-git", ["observed", "severity"]),
        updated("inc-page", ["observed"]),
      ],
      "",
    );
    if (outcome.kind === "ran") outcome.result.ok = true;
    const reasons = (text: string, id: string) =>
      text.split("\n").find((line) => line.includes(` ${id} `)) ?? "";
    const text = renderText(outcome, "/project");
    expect(reasons(text, "inc-git")).toContain("[severity]");
    expect(reasons(text, "inc-git")).not.toContain("status page");
    expect(reasons(text, "inc-page")).toContain("changed on the status page");
    const changes = reportOf(outcome, "/project").incidents.find(
      (incident) => incident.incidentId === "inc-git",
    )?.changes;
    expect(renderMarkdown(outcome, "/project")).not.toMatch(/inc-git.*status page/);
    expect(changes).toContain("severity");
  });

  it("keeps the engine's last lines when nothing else names the cause", () => {
    const outcome = failedUp([], "error: could not load the plugin\n");
    const text = renderText(outcome, "/project");
    expect(text).toContain("Engine output (end):\n  error: could not load the plugin");
  });
});

describe("the run report of a change made on the status page", () => {
  const declared: IncidentInputs = {
    incidentId: "inc-api-errors",
    name: "Elevated error rate on the public API",
    severity: "MAJOR",
    status: "MONITORING",
    services: [{ id: "svc-api", name: "Public API" }],
    onRemove: "release",
    providerVersion: "0.3.0",
  };
  const previous: IncidentRecord = {
    ...declared,
    incidentId: "inc-api-errors",
    appliedAt: "2026-11-28T09:00:00.000Z",
    live: { status: "MONITORING", at: "2026-11-28T09:00:00.000Z", source: "applied" },
    appliedUpdates: [],
  };
  const page = {
    ...declared,
    name: "API errors (seen by support)",
    services: [{ id: "svc-api", name: "Public API", accountId: "acct-demo" }],
    incidentUpdates: [],
    updated_at: "2026-11-28T10:15:00.000Z",
  };
  /** The engine's step of an incident renamed on the page, given its decision. */
  const renamed = (error?: string): IncidentStep => {
    const step: IncidentStep = {
      resource: "api-errors",
      incidentId: "inc-api-errors",
      op: "update",
      diffs: ["observed"],
      warnings: [],
      previous: { ...previous },
      inputs: { ...declared, observed: observe([], page, declared) },
      ...(error === undefined ? {} : { error }),
    };
    markPageChanges([step]);
    return step;
  };
  const run = (steps: IncidentStep[], onPageChange: OnPageChange): OperationOutcome => {
    const outcome = failedUp(steps, "");
    if (outcome.kind !== "ran") throw new Error(outcome.kind);
    outcome.result.ok = steps.every((step) => step.error === undefined);
    return { ...outcome, onPageChange };
  };

  it("under revert, names what up put back, old → new, and when the page changed it", () => {
    const outcome = run([renamed()], "revert");
    const text = renderText(outcome, "/project").replace(/\d+\.\d s/, "<s> s");
    expect(text).toMatchInlineSnapshot(`
      "Stack prod: changes applied (1 updated; <s> s)
        ~ Elevated error rate on the public API (api-errors, inc-api-errors) updated [changed on the status page]
            put back name "API errors (seen by support)" → "Elevated error rate on the public API" (changed on the status page at 2026-11-28T10:15:00Z)
      "
    `);
    expect(exitCodeOf(outcome)).toBe(0);
    expect(reportOf(outcome, "/project").incidents[0]?.pageChanges).toEqual({
      fields: [
        {
          field: "name",
          page: "API errors (seen by support)",
          git: "Elevated error rate on the public API",
        },
      ],
      at: "2026-11-28T10:15:00.000Z",
    });
    expect(renderMarkdown(outcome, "/project")).toContain(
      '| Elevated error rate on the public API (api-errors, inc-api-errors) | updated | changed on the status page; put back name "API errors (seen by support)" → "Elevated error rate on the public API" (changed on the status page at 2026-11-28T10:15:00Z) |',
    );
  });

  it("under refuse, exits 3 when the page's changes are the only failures, and 1 when anything else failed too", () => {
    const refusal = refusalBeforeApply(
      previous,
      { ...declared, observed: observe([], page, declared) },
      "refuse",
    );
    expect(refusal).toContain('name "API errors (seen by support)" → "Elevated error rate');
    const refusedStep = renamed(refusal);
    expect(exitCodeOf(run([refusedStep], "refuse"))).toBe(3);
    // The failure's own line says it all: no put-back line under a step that sent nothing.
    expect(renderText(run([refusedStep], "refuse"), "/project")).not.toContain("put back name");
    const other: IncidentStep = {
      resource: "db",
      incidentId: "inc-db",
      op: "update",
      diffs: ["severity"],
      warnings: [],
      error: refused,
    };
    expect(exitCodeOf(run([refusedStep, other], "refuse"))).toBe(1);
    expect(exitCodeOf(run([renamed("PUT failed: 503")], "revert"))).toBe(1);
    // Another refusal the apply found first, on an incident the page changed too, is no policy's.
    const reopen = "incident inc-api-errors is RESOLVED on the status page: refusing to reopen it";
    expect(exitCodeOf(run([renamed(reopen)], "refuse"))).toBe(1);
  });

  it("knows an incident its resource opened, renamed on the page, by the id its state records among the run's candidates: the preview fails it old → new and up's refusal exits 3", () => {
    const opened = "7d6e5f4a-9b8c-4d0e-9f2a-3b4c5d6e7f8a";
    const { incidentId: _declaredId, ...fresh } = declared;
    /** The engine's step of the new incident, its read only among the candidates, by id. */
    const openedStep = (error?: string): IncidentStep => ({
      resource: "api-errors",
      incidentId: opened,
      op: "update",
      diffs: ["candidates"],
      warnings: [],
      previous: { ...previous, incidentId: opened },
      inputs: {
        ...fresh,
        candidates: {
          [opened]: observe([], page, fresh),
          "inc-look-alike": observe([], { ...page, name: "Another one" }, fresh),
        },
      },
      ...(error === undefined ? {} : { error }),
    });
    const previewed = openedStep();
    markPageChanges([previewed]);
    expect(markPreviewRefusals([previewed], "refuse")).toEqual([previewed]);
    expect(previewed.error).toContain(
      `incident ${opened} was changed on the status page at 2026-11-28T10:15:00Z (name "API errors (seen by support)" → "Elevated error rate on the public API")`,
    );
    expect(exitCodeOf(run([previewed], "refuse"))).toBe(3);
    const reverted = openedStep();
    markPageChanges([reverted]);
    expect(renderText(run([reverted], "revert"), "/project")).toContain(
      'put back name "API errors (seen by support)" → "Elevated error rate on the public API" (changed on the status page at 2026-11-28T10:15:00Z)',
    );
    const refused = openedStep(previewed.error);
    markPageChanges([refused]);
    expect(exitCodeOf(run([refused], "refuse"))).toBe(3);
  });
});

describe("the run report names every incident as a person knows it (issue 52)", () => {
  /** Incidents as the hosted service gives them: GUIDs, each with its name and resource. */
  const incidents = [
    {
      resource: "invoices-late",
      id: "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b",
      name: "Invoices are late",
    },
    { resource: "login-errors", id: "4a3b2c1d-6e5f-4a7b-8c9d-0e1f2a3b4c5d", name: "Login errors" },
    { resource: "slow-search", id: "5b4c3d2e-7f6a-4b8c-9d0e-1f2a3b4c5d6e", name: "Search is slow" },
    { resource: "old-outage", id: "6c5d4e3f-8a7b-4c9d-8e1f-2a3b4c5d6e7f", name: "Old outage" },
    { resource: "fax-down", id: "7d6e5f4a-9b8c-4d0e-9f2a-3b4c5d6e7f8a", name: "Fax is down" },
  ];
  const heartbeat = { id: "3d4e5f6a-7b8c-4d9e-9f0a-2b3c4d5e6f7a", name: "Nightly invoice run" };
  const check = { id: "2c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f", name: "Invoice API checks" };
  const names = new Map([
    ...incidents.map(({ id, name }) => [id, name] as const),
    [heartbeat.id, heartbeat.name],
    [check.id, check.name],
  ]);
  const [adopted, alsoAdopted, updated, released, failed] = incidents as [
    (typeof incidents)[number],
    (typeof incidents)[number],
    (typeof incidents)[number],
    (typeof incidents)[number],
    (typeof incidents)[number],
  ];

  /** The engine's events of a run: adoptions, an update, a removal and a failure, as recorded. */
  function recordedEvents(): EngineEvent[] {
    const urn = (resource: string) =>
      `urn:pulumi:prod::incident-sync::${INCIDENT_TYPE}::${resource}`;
    const inputs = (incident: (typeof incidents)[number]) => ({
      incidentId: incident.id,
      name: incident.name,
    });
    const step = (
      incident: (typeof incidents)[number],
      op: string,
      sequence: number,
      extra: Record<string, unknown> = {},
    ) => ({
      sequence,
      timestamp: sequence,
      resourcePreEvent: {
        metadata: { urn: urn(incident.resource), type: INCIDENT_TYPE, op, ...extra },
      },
    });
    return [
      step(adopted, "create", 1, { new: { inputs: inputs(adopted) } }),
      step(alsoAdopted, "create", 2, { new: { inputs: inputs(alsoAdopted) } }),
      step(updated, "update", 3, {
        old: { inputs: inputs(updated), outputs: { incidentId: updated.id, name: updated.name } },
        new: { inputs: { ...inputs(updated), severity: "MAJOR" } },
        diffs: ["severity"],
      }),
      // A removal: only the last apply's outputs know the incident.
      step(released, "delete", 4, {
        old: { inputs: {}, outputs: { incidentId: released.id, name: released.name } },
      }),
      step(failed, "update", 5, {
        old: { inputs: inputs(failed), outputs: { incidentId: failed.id, name: failed.name } },
        new: { inputs: { ...inputs(failed), status: "RESOLVED" } },
        diffs: ["status"],
      }),
      {
        sequence: 6,
        timestamp: 6,
        diagnosticEvent: {
          urn: urn(failed.resource),
          severity: "error",
          message: `error: PUT /v1/status-pages/incidents/${failed.id} failed: 503 Service Unavailable\n`,
          color: "never",
        },
      },
    ] as unknown as EngineEvent[];
  }

  /** The outputs an up with `outputs: full` prints its summary from. */
  const outputs = {
    incidents: {
      value: Object.fromEntries(
        incidents.map((incident) => [
          incident.id,
          {
            file: `incidents/${incident.resource}.yaml`,
            resource: incident.resource,
            declared: {
              name: incident.name,
              severity: "MAJOR",
              status: "IDENTIFIED",
              services: [{ id: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", name: "Billing API" }],
            },
            applied: { status: "IDENTIFIED", at: "2026-11-01T10:00:00.000Z" },
            live: { status: "IDENTIFIED", source: "update", since: "2026-11-01T10:00:00.000Z" },
          },
        ]),
      ),
      secret: false,
    },
    // The read-backs carry the names the checks list gave the program.
    heartbeats: {
      value: {
        [heartbeat.id]: {
          name: heartbeat.name,
          windowHours: 24,
          eventCount: 1,
          events: [{ id: "8e7f6a5b-0c9d-4e1f-8a3b-4c5d6e7f8a9b" }],
          stats: null,
        },
      },
      secret: false,
    },
    errorGroups: {
      value: {
        [check.id]: { name: check.name, count: 0, archivedCount: 0, pages: 1, top: [] },
      },
      secret: false,
    },
    drift: {
      value: [
        {
          incidentId: updated.id,
          file: "incidents/slow-search.yaml",
          appliedAt: "2026-11-01T10:00:00.000Z",
          declaredStatus: "IDENTIFIED",
          liveStatus: "MONITORING",
          updatesOutsideGit: [],
        },
      ],
      secret: false,
    },
  };

  it.each(["preview", "up"] as const)(
    "%s: no line shows an incident's GUID without its name",
    (operation) => {
      const outcome = failedUp(summarizeEvents(recordedEvents()).incidents, "");
      if (outcome.kind !== "ran") throw new Error("a run");
      outcome.result.operation = operation;
      if (operation === "up") {
        outcome.result.ok = true;
        outcome.result.incidents = outcome.result.incidents.filter(
          (step) => step.error === undefined,
        );
        (outcome as { outputs?: unknown }).outputs = outputs;
      }
      const text = renderText(outcome, "/project");
      const markdown = renderMarkdown(outcome, "/project");
      expect(bareGuids(text, names)).toEqual([]);
      expect(bareGuids(markdown, names)).toEqual([]);
      // The adoptions are listed one by one, by name, as the count says.
      const adopt = operation === "preview" ? "to adopt" : "adopted";
      expect(text).toContain(`2 ${adopt}`);
      for (const incident of [adopted, alsoAdopted]) {
        expect(text).toContain(
          `+ ${incident.name} (${incident.resource}, ${incident.id}) ${adopt}`,
        );
        expect(markdown).toContain(
          `| ${incident.name} (${incident.resource}, ${incident.id}) | ${adopt} |`,
        );
      }
      expect(text).toContain(`- ${released.name} (${released.resource}, ${released.id})`);
      if (operation === "up") {
        expect(text).toContain(`  ${heartbeat.name} (${heartbeat.id})  n/a / n/a`);
        expect(text).toContain(`  ${check.name} (${check.id})  0 groups, 0 archived`);
      }
    },
  );
});
