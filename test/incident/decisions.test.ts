import { describe, expect, it } from "vitest";
import type { IncidentResponse, IncidentUpdate } from "../../src/api";
import {
  afterPut,
  appliedStatus,
  checkInputs,
  claimedRecord,
  decideDiff,
  decideRemoval,
  type IncidentDeclaration,
  type IncidentInputs,
  type IncidentRecord,
  liveBeforeApply,
  nextStatusPut,
  observe,
  planEntriesOn,
  RESOLVED_ON_REMOVE,
  recordedEntriesOf,
  refreshedRecord,
  refreshRead,
  resolvingUpdate,
} from "../../src/incident";

const declared: IncidentDeclaration & { incidentId: string } = {
  incidentId: "inc-api-errors",
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  status: "MONITORING",
  services: [{ id: "svc-api", name: "Public API" }],
  onRemove: "release",
};
const inputs = { ...declared, providerVersion: "0.2.0" } satisfies IncidentInputs;
const record: IncidentRecord = {
  ...inputs,
  appliedAt: "2026-11-23T08:00:00.000Z",
  live: appliedStatus("MONITORING", "2026-11-23T08:00:00.000Z"),
  appliedUpdates: [],
};

const update = (at: string, status?: string, description = "update"): IncidentUpdate => ({
  id: `upd-${at}`,
  description,
  ...(status ? { status } : {}),
  publicIncidentUpdateDate: at,
  created_at: at,
  notifySubscribers: false,
});

const answer = (lastUpdateStatus: string, updates: IncidentUpdate[] = []): IncidentResponse => ({
  id: declared.incidentId,
  name: declared.name,
  severity: declared.severity,
  services: [{ id: "svc-api", name: "Public API", accountId: "acct" }],
  incidentUpdates: updates,
  lastUpdateStatus,
  created_at: "2026-11-20T00:00:00.000Z",
  updated_at: "2026-11-23T09:00:00.000Z",
});

describe("check: the provider's inputs, parsed once", () => {
  it("names each input refused by its own property, incidentId among them", () => {
    const checked = checkInputs(
      {},
      { ...inputs, incidentId: "", severity: "HUGE", services: [] },
      {},
    );
    expect("failures" in checked && checked.failures.map((failure) => failure.property)).toEqual([
      "incidentId",
      "severity",
      "services",
    ]);
  });

  it("gives the declaration with its defaults, and leaves the engine's own keys out", () => {
    const { onRemove: _onRemove, ...given } = inputs;
    const checked = checkInputs({}, { ...given, __provider: "exports.handler = …" }, {});
    expect(checked).toEqual({ inputs });
  });

  it("holds an Incident declared in code to the definition's rules between fields", () => {
    const { incidentId: _id, ...withoutId } = inputs;
    const checked = checkInputs({}, withoutId, {});
    expect(checked).toEqual({
      failures: [
        {
          property: "incidentId",
          reason:
            'missing required field "id" (the incident id on the status page), or "resource" and "updates" to open a new incident',
        },
      ],
    });
  });

  it("refuses a service without a name, an incident found missing, and a reopen not meant", () => {
    const unnamed = checkInputs({}, { ...inputs, services: [{ id: "svc-x" }] }, {});
    expect("failures" in unnamed && unnamed.failures[0]?.property).toBe("services");
    const missing = checkInputs(
      {},
      { ...inputs, observed: { kind: "missing" } },
      { accountId: "acct-1" },
    );
    expect("failures" in missing && missing.failures[0]?.reason).toBe(
      'Incident "inc-api-errors" does not exist in account "acct-1". Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident.',
    );
    const reopened = checkInputs({ status: "RESOLVED" }, inputs, {});
    expect("failures" in reopened && reopened.failures[0]?.property).toBe("status");
    expect("inputs" in checkInputs({ status: "RESOLVED" }, { ...inputs, reopen: true }, {})).toBe(
      true,
    );
  });
});

describe("diff: whether an up applies", () => {
  it("applies a new release and a claimed incident, and nothing in a claim run", () => {
    expect(decideDiff(record, inputs, undefined, "observed")).toEqual({
      changes: false,
      replace: false,
    });
    expect(
      decideDiff(record, { ...inputs, providerVersion: "0.3.0" }, undefined, "observed").changes,
    ).toBe(true);
    expect(decideDiff({ ...record, claimed: true }, inputs, undefined, "observed").changes).toBe(
      true,
    );
    expect(
      decideDiff(record, { ...inputs, name: "x", claimOnly: true }, undefined, "observed"),
    ).toEqual({
      changes: false,
      replace: false,
    });
  });

  it("replaces when the incident id changes", () => {
    expect(
      decideDiff(record, { ...inputs, incidentId: "inc-other" }, undefined, "observed"),
    ).toEqual({
      changes: true,
      replace: true,
    });
  });
});

describe("the PUTs of a declaration without updates", () => {
  it("sends no open status in the first PUT, and the declared one only after its answer shows no RESOLVED", () => {
    const live = liveBeforeApply(
      record,
      observe([update("2026-11-23T09:00:00.000Z", "IDENTIFIED")]),
    );
    expect(live).toMatchObject({ status: "IDENTIFIED", source: "update" });
    expect(nextStatusPut(declared, live ?? appliedStatus("MONITORING", ""), 0)).toEqual({
      kind: "put",
      status: undefined,
    });
    const first = afterPut(declared, answer("IDENTIFIED"), undefined, "", new Date());
    expect(nextStatusPut(declared, first.live, 1)).toEqual({ kind: "put", status: "MONITORING" });
    const second = afterPut(declared, answer("MONITORING"), "MONITORING", "", new Date());
    expect(nextStatusPut(declared, second.live, 2)).toEqual({ kind: "done" });
  });

  it("sends RESOLVED at once, as it reopens nothing, and stops when the answer agrees", () => {
    const resolved = { ...declared, status: "RESOLVED" as const };
    expect(nextStatusPut(resolved, appliedStatus("MONITORING", ""), 0)).toEqual({
      kind: "put",
      status: "RESOLVED",
    });
    const answered = afterPut(resolved, answer("RESOLVED"), "RESOLVED", "", new Date());
    expect(nextStatusPut(resolved, answered.live, 1)).toEqual({ kind: "done" });
  });

  it("refuses a reopen the first PUT's answer shows, a PUT that only set the field having resolved it", () => {
    const answered = afterPut(declared, answer("RESOLVED"), undefined, "", new Date());
    expect(nextStatusPut(declared, answered.live, 1)).toMatchObject({ kind: "refuse" });
    expect(nextStatusPut({ ...declared, reopen: true }, answered.live, 1)).toEqual({
      kind: "put",
      status: "MONITORING",
    });
  });

  it("keeps in the record the updates the PUT made after what the program read, and the server's time", () => {
    const posted = update("2026-11-23T09:00:00.000Z", "MONITORING", "Status changed");
    const result = afterPut(
      declared,
      answer("MONITORING", [update("2026-11-23T07:00:00.000Z", "IDENTIFIED"), posted]),
      "MONITORING",
      "2026-11-23T08:00:00.000Z",
      new Date(),
    );
    expect(result).toEqual({
      appliedAt: "2026-11-23T09:00:00.000Z",
      live: appliedStatus("MONITORING", "2026-11-23T09:00:00.000Z"),
      appliedUpdates: [posted],
    });
  });
});

describe("the entries of a declaration with updates", () => {
  const entries = [
    { status: "INVESTIGATING" as const, message: "Looking into it.", notify: true },
    { status: "MONITORING" as const, message: "Fixed; watching.", notify: false },
  ];
  const withEntries = { ...declared, updates: entries };

  it("posts every entry on adoption, and only the new ones after an apply recorded some", () => {
    expect(recordedEntriesOf(undefined)).toEqual({ entries: [], ids: [] });
    expect(
      planEntriesOn(withEntries, answer("INVESTIGATING"), recordedEntriesOf(undefined), undefined),
    ).toEqual({
      actions: [
        { kind: "post", index: 0 },
        { kind: "post", index: 1 },
      ],
    });
    const applied = { ...record, updates: entries.slice(0, 1), updateIds: ["upd-1"] };
    expect(
      planEntriesOn(withEntries, answer("INVESTIGATING"), recordedEntriesOf(applied), undefined),
    ).toEqual({
      actions: [{ kind: "post", index: 1 }],
    });
    expect(recordedEntriesOf({ ...applied, claimed: true })).toEqual({ entries: [], ids: [] });
  });

  it("refuses an open entry over a live RESOLVED, naming the incident", () => {
    const plan = planEntriesOn(
      withEntries,
      answer("RESOLVED", [update("2026-11-23T09:00:00.000Z", "RESOLVED")]),
      { entries: [], ids: [] },
      undefined,
    );
    expect(plan.actions).toEqual([]);
    expect(plan.refusal).toMatch(
      /^incident inc-api-errors: updates\[0\]: the incident is RESOLVED/,
    );
  });
});

describe("what a removal does", () => {
  it("releases an incident another resource of the run declares, saying so when onRemove said resolve", () => {
    const resolving = { ...record, onRemove: "resolve" as const };
    expect(decideRemoval(resolving, new Set(["inc-api-errors"]))).toMatchObject({
      kind: "release",
      redeclared: true,
      notice: expect.stringContaining("is released, not resolved"),
    });
    expect(decideRemoval(record, new Set(["inc-api-errors"]))).toEqual({
      kind: "release",
      redeclared: true,
    });
  });

  it("resolves by PUT, by a last update with updates, and a claimed one only if it exists", () => {
    const resolving = { ...record, onRemove: "resolve" as const };
    expect(decideRemoval(record, new Set())).toEqual({ kind: "release", redeclared: false });
    expect(decideRemoval(resolving, new Set())).toEqual({
      kind: "resolve",
      via: "put",
      unlessMissing: false,
    });
    expect(decideRemoval({ ...resolving, updates: [], claimed: true }, new Set())).toEqual({
      kind: "resolve",
      via: "update",
      unlessMissing: true,
    });
    expect(decideRemoval({ ...resolving, incidentId: "", updates: [] }, new Set())).toEqual({
      kind: "find-opened",
    });
  });

  it("posts one last update, notifying nobody, unless the incident is resolved already", () => {
    expect(resolvingUpdate([update("2026-11-23T09:00:00.000Z", "MONITORING")], undefined)).toEqual({
      description: RESOLVED_ON_REMOVE,
      status: "RESOLVED",
      notifySubscribers: false,
    });
    expect(
      resolvingUpdate([update("2026-11-23T09:00:00.000Z", "RESOLVED")], undefined),
    ).toBeUndefined();
  });

  it("posts the definition's closing word, notifying as it says", () => {
    const closing = { message: "Payments work again. Thank you for your patience.", notify: true };
    expect(resolvingUpdate([update("2026-11-23T09:00:00.000Z", "MONITORING")], closing)).toEqual({
      description: closing.message,
      status: "RESOLVED",
      notifySubscribers: true,
    });
    expect(
      resolvingUpdate([update("2026-11-23T09:00:00.000Z", "RESOLVED")], closing),
    ).toBeUndefined();
  });
});

describe("claims and refreshes", () => {
  it("records a claim with nothing applied, and the intent to open a new incident", () => {
    const now = new Date("2026-11-23T10:00:00.000Z");
    expect(claimedRecord({ ...inputs, claimOnly: true }, now)).toEqual({
      ...declared,
      providerVersion: "0.2.0",
      appliedAt: "",
      live: { status: "MONITORING", at: "", source: "applied" },
      appliedUpdates: [],
      claimed: true,
    });
    const { incidentId: _id, ...fresh } = inputs;
    expect(claimedRecord({ ...fresh, resource: "new" }, now)).toMatchObject({
      incidentId: "",
      intentAt: "2026-11-23T10:00:00.000Z",
    });
  });

  it("reads nothing for a claim never opened, and refreshes the live status by the one rule", () => {
    expect(refreshRead({ ...record, incidentId: "", claimed: true }, "new:x")).toEqual({
      read: "nothing",
    });
    expect(refreshRead(record, "inc-api-errors")).toEqual({
      read: "updates",
      incidentId: "inc-api-errors",
    });
    const now = new Date("2026-11-23T10:00:00.000Z");
    const legacy = { ...record, createdAt: null } as IncidentRecord;
    const refreshed = refreshedRecord(
      legacy,
      "inc-api-errors",
      [update("2026-11-23T09:00:00.000Z", "RESOLVED")],
      now,
    );
    expect(refreshed).not.toHaveProperty("createdAt");
    expect(refreshed).toMatchObject({
      status: "RESOLVED",
      live: { status: "RESOLVED", source: "update", at: "2026-11-23T09:00:00.000Z" },
    });
    expect(refreshedRecord(record, "inc-api-errors", [], now).live).toEqual(
      appliedStatus("MONITORING", "2026-11-23T10:00:00.000Z"),
    );
  });
});
