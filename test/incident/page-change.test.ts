import { describe, expect, it } from "vitest";
import {
  candidatesFirst,
  type IncidentInputs,
  isOpeningOf,
  mayHaveOpened,
  observationOfStep,
  observe,
  openingOf,
  pageChangesOf,
  pageChangesText,
  refusalBeforeApply,
} from "../../src/incident";
import {
  context,
  drive,
  entriesInputs,
  incident,
  iso,
  record,
  statusInputs,
  T0,
  update,
} from "./support/machine";

/** The last apply an hour before T0; the page renamed the incident at T0 - 60 s. */
const applied = record(statusInputs());
const shown = (overrides: Parameters<typeof incident>[2]) =>
  incident("inc-1", [update("v0", "Watching it.", T0 - 7_200_000, "MONITORING")], {
    updated_at: iso(T0 - 60_000),
    ...overrides,
  });
const observedWith = (
  overrides: Parameters<typeof incident>[2],
  declared: IncidentInputs = statusInputs(),
) => {
  const read = shown(overrides);
  return observe(read.incidentUpdates, read, declared);
};

describe("a change made on the status page, the one decision every surface renders", () => {
  it("keeps in the observation what the page shows of each field it shows otherwise than declared, and nothing while they agree", () => {
    const renamed = observedWith({ name: "Checkout is slow (page)" });
    expect(renamed).toMatchObject({ shown: { name: "Checkout is slow (page)" } });
    expect(renamed).not.toHaveProperty("shown.severity");
    expect(observedWith({})).not.toHaveProperty("shown");
    const services = observedWith({
      services: [
        { id: "svc-web", name: "Web", accountId: "acct-1" },
        { id: "svc-api", name: "Public API", accountId: "acct-1" },
      ],
    });
    expect(services).toMatchObject({ shown: { services: "svc-api, svc-web" } });
    const added = pageChangesOf(applied, statusInputs(), services);
    const refusal = refusalBeforeApply(
      applied,
      { ...statusInputs(), observed: services },
      "refuse",
    );
    expect(added && pageChangesText(added)).toBe(
      "services [svc-api, svc-web] → [svc-api] (changed on the status page at 2026-11-27T11:59:00Z)",
    );
    expect(refusal).toContain("Take it into git (services: [svc-api, svc-web] in its definition)");
  });

  it("names a rename on the page after the last apply as the page's name → git's, with the service's time", () => {
    const declared = statusInputs();
    const changes = pageChangesOf(
      applied,
      declared,
      observedWith({ name: "Checkout is slow (page)", severity: "MINOR" }),
    );
    expect(changes).toEqual({
      fields: [
        { field: "name", page: "Checkout is slow (page)", git: "Checkout fails" },
        { field: "severity", page: "MINOR", git: "MAJOR" },
      ],
      at: iso(T0 - 60_000),
    });
    expect(changes && pageChangesText(changes)).toMatchInlineSnapshot(
      `"name "Checkout is slow (page)" → "Checkout fails", severity "MINOR" → "MAJOR" (changed on the status page at 2026-11-27T11:59:00Z)"`,
    );
  });

  it("puts nothing back that git changed, that the page already shows as git says, that was there before the apply, or that an adoption finds", () => {
    // Git renamed it; the page still shows the name the last apply set.
    const gitRenamed = statusInputs({ name: "Checkout is down" });
    expect(pageChangesOf(applied, gitRenamed, observedWith({}, gitRenamed))).toBeUndefined();
    // Someone on the page made git's change too: nothing to put back.
    expect(
      pageChangesOf(applied, gitRenamed, observedWith({ name: "Checkout is down" }, gitRenamed)),
    ).toBeUndefined();
    // Changed before the last apply, by the service's time: the apply checked it.
    const before = observedWith({ name: "Old page name", updated_at: iso(T0 - 7_200_000) });
    expect(pageChangesOf(applied, statusInputs(), before)).toBeUndefined();
    // An adoption has no apply of its own to compare with.
    const renamed = observedWith({ name: "Checkout is slow (page)" });
    expect(
      pageChangesOf(record(statusInputs(), { claimed: true }), statusInputs(), renamed),
    ).toBeUndefined();
    // The page renamed it and git renamed it otherwise: git's name replaces the page's.
    expect(
      pageChangesOf(applied, gitRenamed, observedWith({ name: "Slow" }, gitRenamed))?.fields,
    ).toEqual([{ field: "name", page: "Slow", git: "Checkout is down" }]);
  });

  it("under refuse, an apply without `updates` ends before any read or write, naming each field old → new and the ways forward", () => {
    const inputs = statusInputs({ observed: observedWith({ name: "Checkout is slow (page)" }) });
    const refusing = { ...context, onPageChange: "refuse" as const };
    const moved = drive({ op: "apply", inputs, olds: applied, context: refusing }, []);
    expect(moved.step.kind).toBe("refuse");
    expect(moved.step.kind === "refuse" && moved.step.message).toMatchInlineSnapshot(
      `"incident inc-1 was changed on the status page at 2026-11-27T11:59:00Z (name "Checkout is slow (page)" → "Checkout fails"), and onPageChange is refuse, so nothing was sent and the page keeps the change. Take it into git (name: "Checkout is slow (page)" in its definition) and run again, or set incident-sync:onPageChange to revert to put git's values back."`,
    );
    // The preview says the same of the step, as `up` would end.
    expect(refusalBeforeApply(applied, inputs, "refuse")).toBe(
      moved.step.kind === "refuse" && moved.step.message,
    );
    expect(refusalBeforeApply(applied, inputs, "revert")).toBeUndefined();
    // Under revert (and unset), the apply puts git's name back.
    for (const onPageChange of ["revert", undefined] as const) {
      const reverting = { ...context, onPageChange };
      const put = drive({ op: "apply", inputs, olds: applied, context: reverting }, []);
      expect(put.step).toMatchObject({ kind: "put", body: { name: "Checkout fails" } });
    }
  });

  it("under refuse, an apply with `updates` ends before it takes the incident's lease", () => {
    const declared = entriesInputs({ incidentId: "inc-1" });
    const olds = record(declared, { updateIds: ["u0", "u1"] });
    const inputs = { ...declared, observed: observedWith({ severity: "MINOR" }, declared) };
    const refusing = { ...context, onPageChange: "refuse" as const };
    expect(drive({ op: "apply", inputs, olds, context: refusing }, []).step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining('severity "MINOR" → "MAJOR"'),
    });
    expect(drive({ op: "apply", inputs, olds, context }, []).step.kind).toBe("lease");
  });

  it("under refuse, an incident opened by its resource and renamed on the page (no longer its opening, so unobserved) is refused on the apply's own read, before the PUT", () => {
    const declared = entriesInputs();
    const olds = record(declared, { incidentId: "inc-1", updateIds: ["u0", "u1"] });
    const renamed = shown({ name: "Checkout is slow (page)" });
    const replies = [
      { kind: "leased", releasedAt: undefined },
      { kind: "took" },
      { kind: "incident", incident: renamed },
    ] as const;
    const refusing = { ...context, onPageChange: "refuse" as const };
    const refused = drive({ op: "apply", inputs: declared, olds, context: refusing }, replies);
    expect(refused.step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining('name "Checkout is slow (page)" → "Checkout fails"'),
    });
    const reverted = drive({ op: "apply", inputs: declared, olds, context }, replies);
    expect(reverted.step).toMatchObject({ kind: "put", body: { name: "Checkout fails" } });
  });

  it("knows an incident opened by its resource and renamed on the page by the id its state records: still a candidate of its first message, it is the step's observation, old → new", () => {
    const declared = entriesInputs();
    const olds = record(declared, { incidentId: "inc-1", updateIds: ["u0", "u1"] });
    const opening = openingOf(declared);
    if (opening === undefined) throw new Error("no opening");
    const first = update("u0", "We are looking into it. [e0]", T0 - 7_200_000, "INVESTIGATING");
    const renamed = incident("inc-1", [first], {
      name: "Checkout is slow (page)",
      updated_at: iso(T0 - 60_000),
    });
    expect(isOpeningOf(renamed, opening)).toBe(false);
    expect(mayHaveOpened(renamed, opening)).toBe(true);
    expect(mayHaveOpened(incident("inc-9", [update("u9", "Other.", T0)]), opening)).toBe(false);
    const observed = observe(renamed.incidentUpdates, renamed, declared);
    const lookAlike = observe([first], incident("inc-2", [first]), declared);
    const news = { ...declared, candidates: { "inc-2": lookAlike, "inc-1": observed } };
    expect(observationOfStep(olds, news)).toBe(observed);
    const changes = pageChangesOf(olds, declared, observationOfStep(olds, news));
    expect(changes && pageChangesText(changes)).toBe(
      'name "Checkout is slow (page)" → "Checkout fails" (changed on the status page at 2026-11-27T11:59:00Z)',
    );
    // Only by the id the state records: none when the run did not read it, or nothing was opened.
    expect(observationOfStep(olds, { ...declared, candidates: { "inc-2": lookAlike } })).toBe(
      undefined,
    );
    expect(observationOfStep({ ...olds, incidentId: "", claimed: true }, news)).toBe(undefined);
  });

  it("gives a new incident's provider the candidates still of its name first, then the newest, so look-alikes renamed or not crowd out none of its name", () => {
    const at = (id: string, name: string, hoursAgo: number) => ({
      id,
      name,
      created_at: iso(T0 - hoursAgo * 3_600_000),
    });
    const listed = [
      at("own", "Checkout fails", 30),
      at("look-1", "Other", 1),
      at("look-2", "Other", 2),
      at("own-newer", "Checkout fails", 5),
      at("look-3", "Other", 3),
    ];
    const named = (candidate: { name: string }) => candidate.name === "Checkout fails";
    expect(candidatesFirst(listed, named, 3).map((candidate) => candidate.id)).toEqual([
      "own-newer",
      "own",
      "look-1",
    ]);
  });
});
