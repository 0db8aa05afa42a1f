import { describe, expect, it } from "vitest";
import type { IncidentUpdate } from "../../src/api/schemas";
import { type MirroredIncident, mirrorOf } from "../../src/incident/mirror";

const CATALOG = new Map([["svc-api", "Public API"]]);

const update = (
  id: string,
  minute: number,
  status: string | undefined,
  description = `Update ${id}`,
): IncidentUpdate => ({
  id,
  description,
  ...(status === undefined ? {} : { status }),
  created_at: new Date(Date.UTC(2026, 10, 3, 9, minute)).toISOString(),
  notifySubscribers: false,
});

const incident = (
  updates: IncidentUpdate[],
  extra: Partial<MirroredIncident> = {},
): MirroredIncident => ({
  id: "inc-1",
  name: "API errors",
  severity: "MAJOR",
  lastUpdateStatus: updates.find((u) => u.status)?.status ?? "INVESTIGATING",
  services: [{ id: "svc-api", name: "Public API" }],
  incidentUpdates: updates,
  ...extra,
});

function definitionOf(mirrored: MirroredIncident) {
  const mirror = mirrorOf(mirrored, CATALOG);
  if (mirror.kind !== "definition") throw new Error(`refused: ${mirror.reason}`);
  return mirror;
}

describe("the definition that mirrors an incident", () => {
  it("lists the updates oldest first whatever order the service gives, each with its date", () => {
    const mirror = definitionOf(
      incident([
        update("u3", 30, "MONITORING"),
        update("u1", 10, "INVESTIGATING"),
        update("u2", 20, "IDENTIFIED"),
      ]),
    );
    expect(mirror.definition.updates).toEqual([
      { status: "INVESTIGATING", message: "Update u1", at: "2026-11-03T09:10:00.000Z" },
      { status: "IDENTIFIED", message: "Update u2", at: "2026-11-03T09:20:00.000Z" },
      { status: "MONITORING", message: "Update u3", at: "2026-11-03T09:30:00.000Z" },
    ]);
    expect(mirror.status).toBe("MONITORING");
    expect(mirror.definition.services).toEqual([
      { id: "svc-api", name: "Public API", named: "catalog" },
    ]);
  });

  it("dates an update by its public date before its creation", () => {
    const backfilled = {
      ...update("u1", 50, "RESOLVED"),
      publicIncidentUpdateDate: "2026-11-01T08:00:00Z",
    };
    const mirror = definitionOf(incident([backfilled]));
    expect(mirror.definition.updates?.[0]?.at).toBe("2026-11-01T08:00:00.000Z");
  });

  it("gives an update without a status the status before it, and a first one the first known after", () => {
    const mirror = definitionOf(
      incident([
        update("u1", 10, undefined),
        update("u2", 20, "IDENTIFIED"),
        update("u3", 30, undefined),
      ]),
    );
    expect(mirror.definition.updates?.map((entry) => entry.status)).toEqual([
      "IDENTIFIED",
      "IDENTIFIED",
      "IDENTIFIED",
    ]);
  });

  it("gives every update the incident's status when none has one (a lean answer)", () => {
    const mirror = definitionOf(
      incident([update("u1", 10, undefined), update("u2", 20, undefined)], {
        lastUpdateStatus: "MONITORING",
      }),
    );
    expect(mirror.definition.updates?.map((entry) => entry.status)).toEqual([
      "MONITORING",
      "MONITORING",
    ]);
  });

  it("dates updates shown at the same instant a millisecond apart, in order, and says so", () => {
    const mirror = definitionOf(
      incident([update("b", 10, "IDENTIFIED"), update("a", 10, "INVESTIGATING")]),
    );
    expect(mirror.definition.updates).toEqual([
      { status: "INVESTIGATING", message: "Update a", at: "2026-11-03T09:10:00.000Z" },
      {
        status: "IDENTIFIED",
        message: "Update b",
        at: "2026-11-03T09:10:00.001Z",
        comment:
          "Shown at 2026-11-03T09:10:00.000Z, as is the update before it: dated a millisecond later, as entries are in order.",
      },
    ]);
  });

  it("declares reopen when the status page reopened it, as a definition must", () => {
    const mirror = definitionOf(
      incident([update("u1", 10, "RESOLVED"), update("u2", 20, "INVESTIGATING")], {
        lastUpdateStatus: "INVESTIGATING",
      }),
    );
    expect(mirror.definition.reopen).toBe(true);
    expect(mirror.notes).toEqual([
      'It was reopened on the status page (updates[1]), which a definition declares with "reopen: true".',
    ]);
  });

  it("keeps the latest 100 updates of more, and says older ones are left out", () => {
    const many = Array.from({ length: 103 }, (_, index) =>
      update(`u${index}`, index, "INVESTIGATING"),
    );
    const mirror = definitionOf(incident(many));
    expect(mirror.definition.updates).toHaveLength(100);
    expect(mirror.definition.updates?.[0]?.message).toBe("Update u3");
    expect(mirror.notes[0]).toBe(
      "The service lists at most an incident's 100 latest updates, and a definition holds as many: these are the latest 100 of the 103 read; older ones are left out.",
    );
  });

  it("declares the status of an incident without updates, and names a service the catalog lacks", () => {
    const mirror = definitionOf(
      incident([], { lastUpdateStatus: "RESOLVED", services: [{ id: "svc-new", name: "New" }] }),
    );
    expect(mirror.definition).toEqual({
      id: "inc-1",
      name: "API errors",
      severity: "MAJOR",
      services: [{ id: "svc-new", name: "New", named: "here" }],
      status: "RESOLVED",
    });
  });

  it("says when the incident's status and its newest update's differ, and keeps the update's", () => {
    const mirror = definitionOf(
      incident([update("u1", 10, "MONITORING")], { lastUpdateStatus: "RESOLVED" }),
    );
    expect(mirror.status).toBe("MONITORING");
    expect(mirror.notes).toHaveLength(1);
  });
});

describe("an incident no valid definition can mirror", () => {
  const reason = (mirrored: MirroredIncident) => {
    const mirror = mirrorOf(mirrored, CATALOG);
    return mirror.kind === "refused" ? mirror.reason : "written";
  };

  it("keeps the duration the service gives, and declares none for a null or missing one", () => {
    const updates = [update("u1", 10, "INVESTIGATING")];
    expect(definitionOf(incident(updates, { duration: 5400 })).definition.duration).toBe(5400);
    expect(definitionOf(incident(updates, { duration: 0 })).definition.duration).toBe(0);
    expect(definitionOf(incident(updates, { duration: null })).definition).not.toHaveProperty(
      "duration",
    );
    expect(definitionOf(incident(updates)).definition).not.toHaveProperty("duration");
    expect(
      definitionOf(incident([], { duration: 60, lastUpdateStatus: "RESOLVED" })).definition
        .duration,
    ).toBe(60);
  });

  it("is refused, with why, rather than written so that up would post its updates again", () => {
    expect(reason(incident([{ ...update("u1", 10, "INVESTIGATING"), id: null }]))).toBe(
      "an update has no id, so up could not tell it is posted, and would post it again",
    );
    expect(reason(incident([update("u1", 10, "INVESTIGATING")], { severity: "SEVERE" }))).toBe(
      'its severity "SEVERE" is not one a definition takes',
    );
    expect(
      reason(incident([update("u1", 10, "INVESTIGATING")], { services: [{ id: "svc-x" }] })),
    ).toBe('its service "svc-x" has no name anywhere');
    expect(reason(incident([update("u1", 10, "INVESTIGATING")], { name: "API\u202Eerrors" }))).toBe(
      "a definition refuses it: name must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 4), which cannot be seen or changes how the text around it is shown",
    );
    expect(
      reason(incident([update("u1", 10, "SOMETHING_NEW")], { lastUpdateStatus: "SOMETHING_NEW" })),
    ).toBe("no update nor the incident shows a status this tool knows");
  });
});
