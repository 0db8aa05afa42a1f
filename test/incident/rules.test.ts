import { describe, expect, it } from "vitest";
import type { IncidentUpdate } from "../../src/api";
import {
  type AppliedIncident,
  decideApply,
  diffDeclarations,
  type IncidentDeclaration,
  liveStatusOf,
  observe,
  statusToSend,
} from "../../src/incident";
import { readStackSettings, StackConfigError } from "../../src/settings";

const declared: IncidentDeclaration = {
  incidentId: "inc-api-errors",
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  status: "MONITORING",
  services: [
    { id: "svc-api", name: "Public API" },
    { id: "svc-web", name: "Web app" },
  ],
  onRemove: "release",
};
const applied: AppliedIncident = { ...declared, appliedAt: "2026-11-23T08:00:00.000Z" };

const update = (
  at: string,
  status?: IncidentUpdate["status"],
  description = "update",
): IncidentUpdate => ({
  id: `upd-${at}`,
  description,
  ...(status ? { status } : {}),
  publicIncidentUpdateDate: at,
  notifySubscribers: false,
});

describe("the one diff rule", () => {
  it("sees no change in a reordering of services, and a change in a service's name", () => {
    const reordered = {
      ...declared,
      services: [
        { id: "svc-web", name: "Web app" },
        { id: "svc-api", name: "Public API" },
      ],
    };
    expect(diffDeclarations(declared, reordered).changed).toEqual([]);
    const renamed = {
      ...declared,
      services: [
        { id: "svc-api", name: "API" },
        { id: "svc-web", name: "Web app" },
      ],
    };
    expect(diffDeclarations(declared, renamed)).toEqual({
      replace: false,
      changed: ["services"],
      services: {
        added: [],
        removed: [],
        renamed: [{ id: "svc-api", before: "Public API", after: "API" }],
      },
    });
  });

  it("treats reopen false as no reopen, and a null duration as different from none", () => {
    expect(diffDeclarations(declared, { ...declared, reopen: false }).changed).toEqual([]);
    expect(diffDeclarations(declared, { ...declared, duration: null }).changed).toEqual([
      "duration",
    ]);
  });

  it("replaces when the incident id changes", () => {
    expect(diffDeclarations(declared, { ...declared, incidentId: "inc-other" }).replace).toBe(true);
  });
});

describe("the one live-status rule", () => {
  const updates = [
    update("2026-11-23T07:00:00.000Z", "INVESTIGATING"),
    update("2026-11-23T09:00:00.000Z", "IDENTIFIED"),
    update("2026-11-23T10:00:00.000Z", undefined, "a comment"),
  ];

  it("takes the newest update with a status, by publication time", () => {
    expect(liveStatusOf(updates)).toMatchObject({ status: "IDENTIFIED", source: "update" });
  });

  it("with the last apply known, ignores older updates and falls back to what the apply set", () => {
    expect(liveStatusOf(updates, { status: "MONITORING", at: "2026-11-23T09:30:00.000Z" })).toEqual(
      {
        status: "MONITORING",
        source: "applied",
        at: "2026-11-23T09:30:00.000Z",
      },
    );
  });

  it("says unknown when nothing tells", () => {
    expect(liveStatusOf([update("2026-11-23T10:00:00.000Z")])).toEqual({
      status: null,
      source: "none",
      at: null,
    });
  });
});

describe("convergence: what an up applies", () => {
  it("applies nothing when git and the status page agree", () => {
    const decision = decideApply(
      applied,
      declared,
      observe([update("2026-11-23T07:00:00.000Z", "MONITORING")]),
      "observed",
    );
    expect(decision).toMatchObject({ apply: false, reasons: [], changed: [], refusal: undefined });
  });

  it("puts back a status changed on the status page", () => {
    const decision = decideApply(
      applied,
      declared,
      observe([update("2026-11-23T09:00:00.000Z", "IDENTIFIED")]),
      "observed",
    );
    expect(decision).toMatchObject({
      apply: true,
      reasons: ["live-status", "outside-git"],
      changed: ["status"],
    });
    expect(statusToSend(declared.status, decision.live)).toBe("MONITORING");
  });

  it("re-applies an incident with anything posted since the last apply, and every incident with enforce always", () => {
    const comment = observe([update("2026-11-23T09:00:00.000Z", undefined, "We are on it")]);
    expect(decideApply(applied, declared, comment, "observed").reasons).toEqual(["outside-git"]);
    expect(decideApply(applied, declared, observe([]), "always").reasons).toEqual(["enforce"]);
  });

  it("refuses to reopen an incident resolved on the status page, saying by which update", () => {
    const resolved = observe([
      update("2026-11-23T09:00:00.000Z", "RESOLVED", "Fixed by the CDN change"),
    ]);
    expect(decideApply(applied, declared, resolved, "observed").refusal).toMatchInlineSnapshot(
      `"incident inc-api-errors was resolved on the status page at 2026-11-23T09:00:00Z by update upd-2026-11-23T09:00:00.000Z ("Fixed by the CDN change"), but its definition says MONITORING: applying it would reopen the incident in front of customers. Set "status: RESOLVED" in the definition, or add "reopen: true" to reopen it on purpose."`,
    );
    expect(
      decideApply(applied, { ...declared, reopen: true }, resolved, "observed").refusal,
    ).toBeUndefined();
  });

  it("decides from git alone when the updates could not be read", () => {
    const decision = decideApply(
      applied,
      { ...declared, name: "Renamed" },
      { kind: "unavailable", reason: "503" },
      "observed",
    );
    expect(decision).toMatchObject({
      apply: true,
      reasons: ["git"],
      changed: ["name"],
      live: undefined,
    });
    expect(statusToSend(declared.status, decision.live)).toBe("MONITORING");
  });
});

describe("reading the stack config", () => {
  it("reads every setting with its default", () => {
    const settings = readStackSettings(
      (name) => ({ baseUrl: "http://127.0.0.1:4010", accountId: "acct-1" })[name as "baseUrl"],
    );
    expect(settings).toEqual({
      baseUrl: "http://127.0.0.1:4010",
      accountId: "acct-1",
      definitionsDir: "incidents",
      retries: 8,
      enforce: "observed",
      onPageChange: "revert",
      readBack: "all",
      strictEvidence: false,
      outputs: "summary",
    });
  });

  it("reports every bad value at once with the key to fix", () => {
    const values: Record<string, string> = {
      baseUrl: "ftp://x",
      retries: "many",
      concurrency: "0",
      enforce: "sometimes",
    };
    let error: unknown;
    try {
      readStackSettings((name) => values[name]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StackConfigError);
    expect((error as Error).message).toMatchInlineSnapshot(`
      "The stack config of incident-sync is not valid:
        incident-sync:baseUrl is "ftp://x": it must be an http:// or https:// URL
        incident-sync:accountId is not set: pulumi config set incident-sync:accountId <value>
        incident-sync:retries is "many": it must be a whole number of retries per call from 0 to 20
        incident-sync:concurrency is "0": it must be a whole number of calls in flight from 1 to 64
        incident-sync:enforce is "sometimes": it must be observed or always"
    `);
  });
});
