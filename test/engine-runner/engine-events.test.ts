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
});
