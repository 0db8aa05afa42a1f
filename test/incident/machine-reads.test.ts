import { describe, expect, it } from "vitest";
import { type IncidentRecord, observe, type Reply, type State } from "../../src/incident";
import {
  context,
  drive,
  entriesInputs,
  FAILURES,
  failed,
  incident,
  iso,
  record,
  statusInputs,
  T0,
  update,
} from "./support/machine";

/*
 * The operations that read at most once (src/incident/machine/reads.ts: refresh, claim, diff)
 * and an apply without `updates` (status.ts): what each answer leads to, and what a failure says.
 */

const shown = incident("inc-1", [update("u0", "Watching.", T0 - 60_000, "MONITORING")]);
const noAccount = { ...context, accountId: "" };
const notFound = () => failed(FAILURES["not-found"]());
const missing =
  'Incident "inc-1" does not exist in account "acct-1". Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident.';

describe("the step machine refreshing", () => {
  const refreshing = (
    changes: Partial<IncidentRecord>,
    inputs = statusInputs(),
    run = context,
  ): State => ({
    op: "refresh",
    id: "inc-1",
    record: record(inputs, { incidentId: "inc-1", ...changes }),
    context: run,
  });

  it("reads the updates of an incident without `updates`, and the incident of one with them, by the id the state records", () => {
    expect(drive(refreshing({}), []).step).toEqual({ kind: "list-updates", incidentId: "inc-1" });
    const withEntries = refreshing({ incidentId: "inc-9" }, entriesInputs({ incidentId: "inc-9" }));
    expect(drive(withEntries, []).step).toEqual({ kind: "get", incidentId: "inc-9" });
    const claimedNew = refreshing({ incidentId: "", claimed: true });
    expect(drive(claimedNew, []).step).toMatchObject({
      kind: "done",
      result: { op: "refresh", id: "inc-1" },
    });
  });

  it("records the live status the updates show, from either read", () => {
    const updates: Reply = { kind: "updates", updates: shown.incidentUpdates };
    expect(drive(refreshing({}), [updates]).step).toMatchObject({
      kind: "done",
      result: {
        op: "refresh",
        id: "inc-1",
        record: {
          incidentId: "inc-1",
          status: "MONITORING",
          live: { status: "MONITORING", source: "update" },
        },
      },
    });
    const withEntries = refreshing({}, entriesInputs({ incidentId: "inc-1" }));
    expect(drive(withEntries, [{ kind: "incident", incident: shown }]).step).toMatchObject({
      kind: "done",
      result: { record: { status: "MONITORING" } },
    });
  });

  it("says the incident is missing when its updates are not found, and probes when the incident is not", () => {
    expect(drive(refreshing({}), [notFound()]).step).toEqual({
      kind: "refuse",
      message: missing,
      notes: [],
    });
    expect(drive(refreshing({}, statusInputs(), noAccount), [notFound()]).step).toMatchObject({
      message: expect.stringMatching(/^Incident "inc-1" does not exist\. /),
    });
    expect(drive(refreshing({}), [failed(FAILURES["server-error"]())]).step).toMatchObject({
      kind: "refuse",
      message: "503 Service Unavailable",
    });
    const withEntries = refreshing({}, entriesInputs({ incidentId: "inc-1" }));
    expect(drive(withEntries, [notFound()]).step).toEqual({
      kind: "list-updates",
      incidentId: "inc-1",
    });
  });
});

describe("the step machine claiming", () => {
  const claiming = (inputs = statusInputs(), run = context): State => ({
    op: "claim",
    inputs,
    context: run,
  });

  it("records an id the program did not read only once its updates are read, and a new incident's intent at once", () => {
    expect(drive(claiming(), []).step).toEqual({ kind: "list-updates", incidentId: "inc-1" });
    const read = statusInputs({ observed: observe(shown.incidentUpdates, shown) });
    expect(drive(claiming(read), []).step).toMatchObject({
      kind: "done",
      result: { op: "claim", id: "inc-1", record: { claimed: true } },
    });
    expect(drive(claiming(), [{ kind: "updates", updates: [] }], T0).step).toMatchObject({
      kind: "done",
      result: { op: "claim", id: "inc-1", record: { incidentId: "inc-1", claimed: true } },
    });
    const fresh = entriesInputs();
    expect(drive(claiming(fresh), [], T0).step).toMatchObject({
      kind: "done",
      result: { op: "claim", id: "new:checkout-down", record: { intentAt: iso(T0) } },
    });
    expect(drive(claiming({ ...fresh, resource: undefined }), []).step).toMatchObject({
      result: { id: "new:" },
    });
  });

  it("says an id to claim is missing, or the service's words", () => {
    expect(drive(claiming(), [notFound()]).step).toEqual({
      kind: "refuse",
      message: missing,
      notes: [],
    });
    expect(drive(claiming(statusInputs(), noAccount), [notFound()]).step).toMatchObject({
      message: expect.stringMatching(/^Incident "inc-1" does not exist\. /),
    });
    expect(drive(claiming(), [failed(FAILURES["server-error"]())]).step).toMatchObject({
      message: "503 Service Unavailable",
    });
  });
});

describe("the step machine applying a status", () => {
  const applying = (
    inputs = statusInputs(),
    olds: IncidentRecord | undefined = record(statusInputs()),
    run = context,
  ): State => ({
    op: "apply",
    inputs,
    olds,
    context: run,
  });
  const monitoring = { kind: "updates", updates: shown.incidentUpdates } as const;

  it("reads the updates, PUTs the declared fields (the status shown already, not sent), and records what the answer shows", () => {
    const renamed = statusInputs({ name: "Checkout is down" });
    expect(drive(applying(renamed), []).step).toEqual({
      kind: "list-updates",
      incidentId: "inc-1",
    });
    const put = drive(applying(renamed), [monitoring]).step;
    expect(put).toEqual({
      kind: "put",
      incidentId: "inc-1",
      body: {
        name: "Checkout is down",
        severity: "MAJOR",
        services: [{ id: "svc-api", name: "Public API", accountId: "acct-1" }],
      },
    });
    const answered = { ...shown, name: "Checkout is down", lastUpdateStatus: "MONITORING" };
    expect(
      drive(applying(renamed), [monitoring, { kind: "incident", incident: answered }]).step,
    ).toMatchObject({
      kind: "done",
      result: {
        op: "apply",
        id: "inc-1",
        record: { name: "Checkout is down", status: "MONITORING" },
      },
    });
  });

  it("says the incident is missing, or the service's words, when a read or a PUT fails", () => {
    expect(drive(applying(), [notFound()]).step).toEqual({
      kind: "refuse",
      message: missing,
      notes: [],
    });
    expect(
      drive(applying(statusInputs(), record(statusInputs()), noAccount), [notFound()]).step,
    ).toMatchObject({
      message: expect.stringMatching(/^Incident "inc-1" does not exist\. /),
    });
    const renamed = statusInputs({ name: "Checkout is down" });
    expect(drive(applying(renamed), [monitoring, failed(FAILURES.refused())]).step).toEqual({
      kind: "refuse",
      message: "400 Bad Request",
      notes: [],
    });
  });

  it("refuses a PUT the service did not take", () => {
    const renamed = statusInputs({ name: "Checkout is down" });
    const kept = { ...shown, lastUpdateStatus: "MONITORING" };
    expect(
      drive(applying(renamed), [monitoring, { kind: "incident", incident: kept }]).step,
    ).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(
        /^incident inc-1: the service answered the PUT with name "Checkout fails"/,
      ),
    });
  });

  it("says an answer of the wrong kind to its read or its PUT is a bug of the provider", () => {
    expect(drive(applying(), [{ kind: "took" }]).step).toMatchObject({
      message:
        "incident-sync: the provider answered took to a step of status-read (a bug; please report it).",
    });
    const renamed = statusInputs({ name: "Checkout is down" });
    expect(
      drive(applying(renamed), [monitoring, { kind: "updates", updates: [] }]).step,
    ).toMatchObject({
      message:
        "incident-sync: the provider answered updates to a step of status-put (a bug; please report it).",
    });
  });
});

describe("the step machine ending a read-only operation", () => {
  it("says nothing when a refresh, a claim or a diff ends", () => {
    const olds = record(entriesInputs(), { incidentId: "inc-1" });
    const updates: Reply = { kind: "updates", updates: shown.incidentUpdates };
    const refresh: State = {
      op: "refresh",
      id: "inc-1",
      record: record(statusInputs(), { incidentId: "inc-1" }),
      context,
    };
    expect(drive(refresh, [updates]).step).toMatchObject({ kind: "done", notes: [] });
    const nothing: State = {
      op: "refresh",
      id: "inc-1",
      record: { ...olds, incidentId: "", claimed: true },
      context,
    };
    expect(drive(nothing, []).step).toMatchObject({ kind: "done", notes: [] });
    const claim: State = { op: "claim", inputs: entriesInputs(), context };
    expect(drive(claim, []).step).toMatchObject({ kind: "done", notes: [] });
    const claimOnly: State = {
      op: "diff",
      olds,
      news: { ...entriesInputs({ name: "Renamed" }), claimOnly: true },
      enforce: "observed",
      context,
    };
    expect(drive(claimOnly, []).step).toEqual({
      kind: "done",
      result: { op: "diff", changes: false, replace: false },
      notes: [],
    });
  });

  it("decides a diff on the incident it read: a rename on the status page is a change, which git alone does not show", () => {
    const olds = record(entriesInputs(), {
      incidentId: "inc-1",
      updates: entriesInputs().updates,
      updateIds: ["u0", "u1"],
    });
    const diff: State = {
      op: "diff",
      olds,
      news: { ...entriesInputs(), incidentId: undefined },
      enforce: "observed",
      context,
    };
    expect(drive(diff, []).step).toEqual({ kind: "get", incidentId: "inc-1" });
    // Renamed on the status page: the read shows what git alone would not.
    const renamed = { ...shown, name: "Renamed on the page" };
    expect(drive(diff, [{ kind: "incident", incident: renamed }]).step).toEqual({
      kind: "done",
      result: { op: "diff", changes: true, replace: false },
      notes: [],
    });
    expect(drive(diff, [failed(FAILURES["server-error"]())]).step).toMatchObject({
      result: { op: "diff", changes: false },
    });
  });
});
