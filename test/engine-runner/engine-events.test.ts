import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { summarizeEvents } from "../../src/engine/engine-events";
import { INCIDENT_TYPE } from "../../src/incident";

const urn = `urn:pulumi:prod::incident-sync::${INCIDENT_TYPE}::checkout-down`;

describe("the engine's events of a run, as incident-sync up reads them", () => {
  it("gives the reason of a failure that kept what it made, not the engine's count of reasons", () => {
    const reason =
      "(new: checkout-down): the service did not answer the request that opens it, sent at 2026-11-27T12:00:00.000Z, and does not show it opened.";
    const events = [
      {
        sequence: 1,
        timestamp: 1,
        resOpFailedEvent: { metadata: { urn, type: INCIDENT_TYPE, op: "create" } },
      },
      {
        sequence: 2,
        timestamp: 2,
        diagnosticEvent: {
          urn,
          severity: "error",
          message: `error: 1 error occurred:\n\t* ${reason}\n\n`,
          color: "never",
        },
      },
    ] as unknown as EngineEvent[];
    expect(summarizeEvents(events).incidents).toMatchObject([
      { resource: "checkout-down", error: reason },
    ]);
  });

  it("names the incident a failed step kept in the state, as opened whatever failed after it", () => {
    const id = "5b1c0d6e-0000-4000-8000-000000000001";
    const failedWith = (outputs: Record<string, unknown>) =>
      summarizeEvents([
        {
          sequence: 1,
          timestamp: 1,
          resourcePreEvent: {
            metadata: {
              urn,
              type: INCIDENT_TYPE,
              op: "create",
              new: { inputs: { resource: "checkout-down" } },
            },
          },
        },
        {
          sequence: 2,
          timestamp: 2,
          resOpFailedEvent: {
            metadata: { urn, type: INCIDENT_TYPE, op: "create", new: { inputs: {}, outputs } },
          },
        },
      ] as unknown as EngineEvent[]).incidents;
    expect(failedWith({ incidentId: id })).toMatchObject([
      { resource: "checkout-down", incidentId: id, keptIncidentId: id, error: "failed" },
    ]);
    // A create that got no answer keeps its intent, not an incident.
    expect(failedWith({ incidentId: "" })[0]?.keptIncidentId).toBeUndefined();
  });
});
