import { describe, expect, it } from "vitest";
import type { IncidentUpdate } from "../../src/api/schemas";
import { type DriftInput, driftOf, hasDrifted } from "../../src/incident";

const update = (id: string, status: IncidentUpdate["status"], at: string): IncidentUpdate =>
  ({ id, status, description: `${id} said so`, created_at: at }) as IncidentUpdate;

const declared: DriftInput["declared"] = {
  status: "IDENTIFIED",
  name: "Card payments are declined",
  severity: "MAJOR",
  services: [{ id: "svc-checkout", name: "Checkout" }],
};

describe("the one drift model", () => {
  const posted = [
    update("upd-1", "INVESTIGATING", "2026-01-01T10:00:00.000Z"),
    update("upd-2", "IDENTIFIED", "2026-01-01T10:05:00.000Z"),
  ];

  it("counts the updates the stack's applies posted as git's: not outside git, so never drift", () => {
    const without = driftOf({ declared, updates: posted, since: "2026-01-01T09:00:00.000Z" });
    expect(without.updatesOutsideGit.map((u) => [u.id, u.class])).toEqual([
      ["upd-2", "expected"],
      ["upd-1", "drift"],
    ]);
    const withPosted = driftOf({
      declared,
      updates: posted,
      since: "2026-01-01T09:00:00.000Z",
      posted: new Set(["upd-1", "upd-2"]),
    });
    expect(withPosted.updatesOutsideGit).toEqual([]);
    expect(withPosted.state).toBe("in-sync");
    expect(hasDrifted(withPosted)).toBe(false);
  });

  it("names a name, severity or services the status page shows otherwise, and that is drift whatever the status", () => {
    const drift = driftOf({
      declared,
      updates: posted,
      since: null,
      posted: new Set(["upd-1", "upd-2"]),
      fields: {
        name: "Card payments were declined",
        severity: "MAJOR",
        services: [{ id: "svc-checkout" }, { id: "svc-api" }],
      },
    });
    expect(drift.state).toBe("in-sync");
    expect(drift.fields).toEqual([
      {
        field: "name",
        declared: "Card payments are declined",
        live: "Card payments were declined",
      },
      { field: "services", declared: "svc-checkout", live: "svc-api, svc-checkout" },
    ]);
    expect(hasDrifted(drift)).toBe(true);
  });
});
