import { describe, expect, it } from "vitest";
import type { OperationOutcome } from "../../src/engine";
import type { IncidentStep } from "../../src/engine/engine-events";
import { renderMarkdown, renderText, reportOf } from "../../src/engine/run-report";

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
        },
        { resource: "db", incidentId: "inc-db", op: "update", diffs: ["name"], warnings: [] },
      ],
      outputsDiff,
    );
    expect(renderText(outcome, "/project").replace(/\d+\.\d s/, "<s> s")).toMatchInlineSnapshot(`
      "✗ inc-api-errors (resource api-errors): PUT /v1/status-pages/incidents/inc-api-errors failed: 400 Bad Request: services[0].id "svc-typo" is not a service of account acct-demo

      Stack prod: up failed (1 not updated, 1 updated; <s> s)
        ✗ inc-api-errors (resource api-errors) not updated [services]
        ~ inc-db (resource db) updated [name]

      ✗ inc-api-errors (resource api-errors): PUT /v1/status-pages/incidents/inc-api-errors failed: 400 Bad Request: services[0].id "svc-typo" is not a service of account acct-demo
      "
    `);
    expect(reportOf(outcome, "/project").incidents.map((incident) => incident.action)).toEqual([
      "not updated",
      "updated",
    ]);
    expect(renderMarkdown(outcome, "/project")).toContain(
      "| `inc-api-errors` | not updated | services |",
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
          inputs: { resource: "sms-down" },
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
    expect(text).toMatch(/^ {2}\+ \S+ \(resource sms-down\) opened/m);
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
