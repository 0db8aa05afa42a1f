import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IncidentInputs, IncidentProvider, IncidentState } from "../../providers/incident";
import { observe } from "../../src/incident";

// The compiled provider, as the engine's plugin loads it: its methods load the operations by
// package name from the working directory, here this repository.
const { incidentProvider } = require(
  join(__dirname, "..", "..", "dist", "providers", "incident.js"),
) as { incidentProvider: IncidentProvider };

const inputs: IncidentInputs = {
  incidentId: "inc-api-errors",
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  status: "MONITORING",
  services: [{ id: "svc-api", name: "Public API" }],
  onRemove: "release",
  providerVersion: "0.2.0",
};

/** The state of `inputs` once applied. */
const applied: IncidentState = {
  ...inputs,
  appliedAt: "2026-11-01T00:00:00.000Z",
  live: { status: "MONITORING", at: "2026-11-01T00:00:00.000Z", source: "applied" },
  appliedUpdates: [],
};

const resolvedOnThePage = observe([
  {
    id: "upd-9",
    description: "Fixed by the CDN change",
    status: "RESOLVED",
    publicIncidentUpdateDate: "2026-11-02T10:00:00.000Z",
    notifySubscribers: false,
  },
]);

describe("the incident provider's check and diff", () => {
  it("returns each invalid input as a property and a reason", async () => {
    const result = await incidentProvider.check?.(
      {} as IncidentInputs,
      {
        ...inputs,
        severity: "HUGE",
        services: [],
        incidentId: "",
      } as never,
    );
    expect(result?.failures?.map((failure) => failure.property)).toEqual([
      "incidentId",
      "severity",
      "services",
    ]);
  });

  it("accepts valid inputs and normalizes the defaults", async () => {
    const { onRemove: _default, ...rest } = inputs;
    const result = await incidentProvider.check?.({} as IncidentInputs, rest as never);
    expect(result).toEqual({ inputs });
  });

  it("refuses to reopen a resolved incident unless the definition says reopen", async () => {
    const resolved = { ...inputs, status: "RESOLVED" as const };
    const reopened = { ...inputs, status: "MONITORING" as const };
    const refused = await incidentProvider.check?.(resolved, reopened);
    expect(refused?.failures).toMatchInlineSnapshot(`
      [
        {
          "property": "status",
          "reason": "incident inc-api-errors is RESOLVED; moving it to MONITORING reopens it: add \`reopen: true\` to its definition",
        },
      ]
    `);
    const allowed = await incidentProvider.check?.(resolved, { ...reopened, reopen: true });
    expect(allowed?.failures).toBeUndefined();
  });

  it("names an incident that does not exist", async () => {
    const missing = await incidentProvider.check?.({} as IncidentInputs, {
      ...inputs,
      observed: { kind: "missing" },
    });
    expect(missing?.failures).toEqual([
      {
        property: "incidentId",
        reason:
          'Incident "inc-api-errors" does not exist. The API cannot create incidents: create it on the status page first, or fix the id in its definition.',
      },
    ]);
  });

  it("reports a change without any network call, and none when only the provider's outputs differ", async () => {
    const changed = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      name: "Errors on the public API",
    });
    expect(changed).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect((await incidentProvider.diff?.("inc-api-errors", applied, inputs))?.changes).toBe(false);
  });

  it("replaces the resource, deleting first, when the incident id changes", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      incidentId: "inc-api-errors-2",
    });
    expect(result).toEqual({ changes: true, replaces: ["incidentId"], deleteBeforeReplace: true });
  });

  it("applies a new provider release as an update, so the state records the new provider", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      providerVersion: "0.3.0",
    });
    expect(result?.changes).toBe(true);
  });

  it("reports an incident resolved on the status page that git still declares open as a change, which the update step then refuses", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      observed: resolvedOnThePage,
    });
    expect(result?.changes).toBe(true);
  });

  it("diffs state written by incident-sync 0.1, which held createdAt and no live status", async () => {
    const legacy = {
      ...inputs,
      providerVersion: "0.1.0",
      appliedAt: "2026-11-01T00:00:00.000Z",
      createdAt: null,
    } as unknown as IncidentState;
    expect((await incidentProvider.diff?.("inc-api-errors", legacy, inputs))?.changes).toBe(true);
  });
});
