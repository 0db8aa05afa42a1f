import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IncidentInputs, IncidentProvider } from "../../providers/incident";

// The compiled provider, as the engine's plugin loads it: its methods require compiled modules.
const { incidentProvider } = require(
  join(__dirname, "..", "..", "dist", "providers", "incident.js"),
) as {
  incidentProvider: IncidentProvider;
};

const inputs: IncidentInputs = {
  incidentId: "inc-api-errors",
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  status: "MONITORING",
  services: [{ id: "svc-api", name: "Public API" }],
  onRemove: "release",
  providerVersion: "0.1.0",
};

describe("the incident provider's check and diff", () => {
  it("returns each invalid input as a property and a reason", async () => {
    const result = await incidentProvider.check?.({}, {
      ...inputs,
      severity: "HUGE",
      services: [],
      incidentId: "",
    } as never);
    expect(result?.failures).toMatchInlineSnapshot(`
      [
        {
          "property": "incidentId",
          "reason": "must not be empty",
        },
        {
          "property": "severity",
          "reason": "Invalid option: expected one of "CRITICAL"|"MAJOR"|"MEDIUM"|"MINOR"",
        },
        {
          "property": "services",
          "reason": "Too small: expected array to have >=1 items",
        },
      ]
    `);
  });

  it("accepts valid inputs and normalizes the defaults", async () => {
    const { onRemove: _default, ...rest } = inputs;
    const result = await incidentProvider.check?.({}, rest as never);
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
    expect(allowed?.inputs?.status).toBe("MONITORING");
  });

  it("reports exactly the changed fields without any network call", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", inputs, {
      ...inputs,
      name: "Errors on the public API",
      services: [{ id: "svc-api" }],
    });
    expect(result).toEqual({
      changes: true,
      replaces: [],
      // Everything but name and services stays as it is.
      stables: [
        "incidentId",
        "severity",
        "status",
        "duration",
        "onRemove",
        "reopen",
        "providerVersion",
      ],
      deleteBeforeReplace: false,
    });
  });

  it("replaces the resource, deleting first, when the incident id changes", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", inputs, {
      ...inputs,
      incidentId: "inc-api-errors-2",
    });
    expect(result?.replaces).toEqual(["incidentId"]);
    expect(result?.deleteBeforeReplace).toBe(true);
  });

  it("finds no change when only the provider's own outputs differ", async () => {
    const olds = { ...inputs, appliedAt: "2026-01-01T00:00:00.000Z", createdAt: null };
    expect((await incidentProvider.diff?.("inc-api-errors", olds, inputs))?.changes).toBe(false);
  });

  it("applies a new provider release as an update", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", inputs, {
      ...inputs,
      providerVersion: "0.2.0",
    });
    expect(result?.changes).toBe(true);
    expect(result?.stables).not.toContain("providerVersion");
  });
});

describe("where the stored provider finds its operations", () => {
  it("prefers INCIDENT_SYNC_OPERATIONS, so a state written by another checkout still works", async () => {
    const dir = mkdtempSync(join(tmpdir(), "operations-"));
    const standIn = join(dir, "incident-operations.js");
    writeFileSync(
      standIn,
      "exports.check = async () => ({ inputs: { loadedFrom: 'INCIDENT_SYNC_OPERATIONS' } });",
    );
    process.env.INCIDENT_SYNC_OPERATIONS = standIn;
    try {
      const result = await incidentProvider.check?.({}, inputs);
      expect(result?.inputs).toEqual({ loadedFrom: "INCIDENT_SYNC_OPERATIONS" });
    } finally {
      delete process.env.INCIDENT_SYNC_OPERATIONS;
    }
  });

  it("uses the captured path when the variable names no file", async () => {
    process.env.INCIDENT_SYNC_OPERATIONS = join(tmpdir(), "no-such-dir", "incident-operations.js");
    try {
      const result = await incidentProvider.check?.({}, inputs);
      expect(result?.failures ?? []).toEqual([]);
      expect(result?.inputs).toMatchObject({ incidentId: "inc-api-errors" });
    } finally {
      delete process.env.INCIDENT_SYNC_OPERATIONS;
    }
  });
});
