import { describe, expect, it } from "vitest";
import { unrecordedAfter, withUnrecorded } from "../../src/engine/claim-record";
import { stepLabel } from "../../src/engine/run-report";
import { incidentUrn, upRun } from "./support/stack-runs";

/** The claim run's steps: one adopts an existing incident, one opens a new one; both failed. */
const claim = upRun([
  {
    resource: "inc-a",
    op: "create",
    diffs: [],
    warnings: [],
    inputs: { incidentId: "inc-a", name: "A" },
    error: "GET /v1/status-pages/incidents/inc-a/incident-updates failed: 503",
  },
  {
    resource: "new-b",
    op: "create",
    diffs: [],
    warnings: [],
    inputs: { resource: "new-b", name: "B" },
    error: "GET /v1/status-pages/incidents failed: 503",
  },
]);

describe("incidents a claim could not record", () => {
  it("are shown as not adopted or not opened by their claim's inputs, not by the apply that left them out", () => {
    const unrecorded = unrecordedAfter(claim, ["inc-a", "new-b"], {
      deployment: { resources: [{ urn: incidentUrn("kept"), type: "other" }] },
    });
    // The apply excludes them: the engine reports each as a `same` step with empty inputs.
    const applied = upRun(
      ["inc-a", "new-b"].map((resource) => ({
        resource,
        op: "same" as const,
        diffs: [],
        warnings: ["could not read"],
        previous: {},
        inputs: {},
      })),
    );
    const result = withUnrecorded(applied, unrecorded);
    expect(result.ok).toBe(false);
    expect(result.incidents.map((step) => [step.resource, stepLabel(step, false)])).toEqual([
      ["inc-a", "not adopted"],
      ["new-b", "not opened"],
    ]);
    expect(result.incidents[0]).toMatchObject({
      incidentId: "inc-a",
      error: "GET /v1/status-pages/incidents/inc-a/incident-updates failed: 503",
    });
  });
});
