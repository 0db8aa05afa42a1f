import { describe, expect, it } from "vitest";
import {
  adoptedNote,
  type DeclaredEntry,
  type IncidentInputs,
  type IncidentRecord,
  OUTCOME_WINDOW_MS,
  observe,
  RESOLVING_ENTRY,
  type Reply,
  type State,
  type Step,
  THROTTLED_WRITES_MAX,
} from "../../src/incident";
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
 * The step machine of src/incident, with no engine and no server: every phase it can reach,
 * fed every answer a step can get, and the transitions that keep a write from being sent twice.
 */

const fresh = entriesInputs();
const [first, second] = fresh.updates as [DeclaredEntry, DeclaredEntry];
const opening = { op: "apply", inputs: fresh, olds: undefined, context } as const;
/** The incident a create made: its first entry, with an id. */
const made = incident("inc-new", [update("u0", first.message ?? "", T0, "INVESTIGATING")]);
const listed = (entries: ReturnType<typeof incident>[] = [], readAt = T0): Reply => ({
  kind: "listed",
  incidents: { entries, skipped: [] },
  readAt,
  inRun: new Set(),
});
const leased: Reply = { kind: "leased", releasedAt: undefined };
/** The create's answer with its first entry's message, not its id. */
const withoutIds = incident("inc-new", [update(undefined, first.message, T0, "INVESTIGATING")]);
const took: Reply = { kind: "took" };

/** A known incident whose first entry was posted and recorded; the second is new. */
const known = entriesInputs({ incidentId: undefined });
const knownRecord = record(known, {
  incidentId: "inc-new",
  updates: known.updates?.slice(0, 1),
  updateIds: ["u0"],
});
const applying = { op: "apply", inputs: known, olds: knownRecord, context } as const;
const status = {
  op: "apply",
  inputs: statusInputs(),
  olds: record(statusInputs()),
  context,
} as const;
/** An adoption of an incident the program read as declared: both entries posted already. */
const shownAdopted = incident("inc-new", [
  update("u0", first.message ?? "", T0 - 60_000, "INVESTIGATING"),
  update("u1", second.message ?? "", T0 - 30_000, "IDENTIFIED"),
]);
const adopting = {
  op: "apply",
  inputs: entriesInputs({
    incidentId: "inc-new",
    observed: observe(shownAdopted.incidentUpdates, shownAdopted),
  }),
  olds: undefined,
  context,
} as const;
const removing = (changes: Partial<IncidentRecord>, inputs: IncidentInputs = statusInputs()) =>
  ({ op: "remove", record: record(inputs, changes), context }) as const;

/** Every phase the machine reaches, by the answers that lead there, and the step it waits on. */
const PHASES: Record<string, { state: State; step: Step }> = {
  "open-lease": drive(opening, []),
  "open-list": drive(opening, [leased]),
  "open-list after another holder": drive(opening, [{ kind: "leased", releasedAt: T0 + 500 }]),
  "open-read": drive(opening, [leased, listed([{ ...made, incidentUpdates: undefined } as never])]),
  "open-take": drive(opening, [leased, listed([made])]),
  opening: drive(opening, [leased, listed()]),
  "open-list after a create got no answer": drive(opening, [
    leased,
    listed(),
    failed(FAILURES.timeout()),
  ]),
  "known-take after a create": drive(opening, [
    leased,
    listed(),
    { kind: "incident", incident: made },
  ]),
  "known-get after a create answered without ids": drive(opening, [
    leased,
    listed(),
    { kind: "incident", incident: withoutIds },
    took,
  ]),
  "open-confirm after a create answered without updates": drive(opening, [
    leased,
    listed(),
    { kind: "incident", incident: { ...made, incidentUpdates: [] } },
  ]),
  "send (post)": drive(opening, [leased, listed(), { kind: "incident", incident: made }, took]),
  "reread after a post got no answer": drive(opening, [
    leased,
    listed(),
    { kind: "incident", incident: made },
    took,
    failed(FAILURES.timeout()),
  ]),
  "reread after a post answered without its id": drive(opening, [
    leased,
    listed(),
    { kind: "incident", incident: made },
    took,
    { kind: "update", update: update(undefined, second.message ?? "", T0 + 5_000) },
  ]),
  "open-services": drive(opening, [leased, listed(), failed(FAILURES["not-found"]())]),
  "known-lease": drive(applying, []),
  "known-take": drive(applying, [leased]),
  "known-get": drive(applying, [leased, took]),
  "known-list": drive(adopting, [leased, took]),
  "known-put": drive(applying, [
    leased,
    took,
    { kind: "incident", incident: { ...made, name: "Renamed" } },
  ]),
  "send (edit)": drive(
    {
      ...applying,
      olds: { ...knownRecord, updates: [{ ...first, message: "Old words. [e0]" }] },
    },
    [
      leased,
      took,
      {
        kind: "incident",
        incident: incident("inc-new", [update("u0", "Old words. [e0]", T0 - 60_000)]),
      },
    ],
  ),
  probe: drive(applying, [leased, took, failed(FAILURES["not-found"]())]),
  "status-read": drive(status, []),
  "status-put": drive(status, [{ kind: "updates", updates: [] }]),
  put: drive(removing({}), []),
  catalog: drive(removing({ services: [{ id: "svc-api" }] }), []),
  exists: drive(removing({ claimed: true }), []),
  "resolve-lease": drive(
    removing({ incidentId: "inc-new" }, entriesInputs({ onRemove: "resolve" })),
    [],
  ),
  "resolve-get": drive(
    removing({ incidentId: "inc-new" }, entriesInputs({ onRemove: "resolve" })),
    [leased],
  ),
  "resolve-post": drive(
    removing({ incidentId: "inc-new" }, entriesInputs({ onRemove: "resolve" })),
    [leased, { kind: "incident", incident: made }],
  ),
  "resolve-reread": drive(
    removing({ incidentId: "inc-new" }, entriesInputs({ onRemove: "resolve" })),
    [leased, { kind: "incident", incident: made }, failed(FAILURES.timeout())],
  ),
  "find-list": drive(
    removing({ claimed: true, intentAt: iso(T0) }, entriesInputs({ onRemove: "resolve" })),
    [],
  ),
  "find-read": drive(
    removing({ claimed: true, intentAt: iso(T0) }, entriesInputs({ onRemove: "resolve" })),
    [listed([{ ...made, incidentUpdates: undefined } as never])],
  ),
  "refresh-updates": drive(
    { op: "refresh", id: "inc-1", record: record(statusInputs()), context },
    [],
  ),
  "refresh-incident": drive(
    { op: "refresh", id: "inc-new", record: { ...knownRecord }, context },
    [],
  ),
  claim: drive({ op: "claim", inputs: statusInputs(), context }, []),
  diff: drive({ op: "diff", olds: knownRecord, news: known, enforce: "observed", context }, []),
};

/** Every answer a step can get. */
const REPLIES: Record<string, Reply> = {
  leased,
  "leased after another holder": { kind: "leased", releasedAt: T0 + 500 },
  "listed, nothing": listed(),
  "listed, the opening": listed([made]),
  incident: { kind: "incident", incident: made },
  "incident, no updates": { kind: "incident", incident: { ...made, incidentUpdates: [] } },
  updates: { kind: "updates", updates: made.incidentUpdates },
  update: { kind: "update", update: update("u1", second.message ?? "", T0 + 5_000) },
  "update, no id": { kind: "update", update: update(undefined, second.message ?? "", T0 + 5_000) },
  named: { kind: "named", services: [{ id: "svc-api", name: "Public API" }] },
  services: { kind: "services", ids: new Set(["svc-api"]) },
  took,
  taken: { kind: "taken" },
  ...Object.fromEntries(
    Object.entries(FAILURES).map(([name, make]) => [`failed: ${name}`, failed(make())]),
  ),
};

/** What the step that leads to a state may be answered with (what `send` can answer). */
const ANSWERS: Record<Step["kind"], Reply["kind"][]> = {
  lease: ["leased"],
  list: ["listed", "failed"],
  get: ["incident", "failed"],
  "list-updates": ["updates", "failed"],
  take: ["took", "taken"],
  catalog: ["named", "failed"],
  services: ["services", "failed"],
  open: ["incident", "failed"],
  put: ["incident", "failed"],
  post: ["update", "failed"],
  edit: ["update", "failed"],
  done: [],
  refuse: [],
};

const WRITES = new Set(["open", "post", "edit", "put"]);

describe("the step machine, every phase against every answer", () => {
  it("reaches every phase it has, each waiting on a step that is not the end", () => {
    const phases = new Set(
      Object.values(PHASES).map(({ state }) => ("phase" in state ? state.phase : "start")),
    );
    expect([...phases].sort()).toEqual(
      [
        "catalog",
        "claim",
        "diff",
        "exists",
        "find-list",
        "find-read",
        "known-get",
        "known-lease",
        "known-list",
        "known-put",
        "known-take",
        "open-lease",
        "open-list",
        "open-read",
        "open-take",
        "opening",
        "open-confirm",
        "open-services",
        "probe",
        "put",
        "refresh-incident",
        "refresh-updates",
        "reread",
        "resolve-get",
        "resolve-lease",
        "resolve-post",
        "resolve-reread",
        "send",
        "status-put",
        "status-read",
      ].sort(),
    );
    for (const { step } of Object.values(PHASES))
      expect(["done", "refuse"]).not.toContain(step.kind);
  });

  it.each(Object.entries(PHASES))(
    "%s: each answer gives a step, and no write is sent again",
    (_phase, reached) => {
      for (const [reply, answer] of Object.entries(REPLIES)) {
        const { step } = drive(reached.state, [answer], T0 + 60_000) as { step: Step };
        const said = `answered ${reply}, it stepped ${JSON.stringify(step).slice(0, 200)}`;
        if (!ANSWERS[reached.step.kind].includes(answer.kind)) {
          // An answer the step cannot get is a bug of the provider, never a reason to write.
          expect(step, said).toMatchObject({
            kind: "refuse",
            message: expect.stringContaining("a bug"),
          });
          continue;
        }
        if (WRITES.has(reached.step.kind) && answer.kind === "failed") {
          // A write that failed is read back or ends the operation; it is never sent again.
          expect(["get", "list", "list-updates", "services", "refuse", "done"], said).toContain(
            step.kind,
          );
          if (step.kind === "done") expect(reached.step.kind, said).toBe("put");
        }
        if (step.kind === "refuse" && step.keep) {
          const { record: kept } = step.keep;
          expect(kept.updateIds?.length ?? 0, said).toBeLessThanOrEqual(kept.updates?.length ?? 0);
          expect(step.keep.id, said).not.toBe("");
        }
      }
    },
  );
});

/** The transitions that keep writes from being sent twice, one row each. */
describe("the step machine's transitions", () => {
  const stepAfter = (phase: keyof typeof PHASES, reply: Reply, at = T0 + 60_000) =>
    drive(PHASES[phase]?.state as State, [reply], at).step;
  const shownBoth = incident("inc-new", [
    update("u0", first.message, T0),
    update("u1", second.message, T0 + 2_000, "IDENTIFIED"),
  ]);
  const lean = { ...made, incidentUpdates: undefined } as never;

  it.each<[string, keyof typeof PHASES, Reply, Record<string, unknown>]>([
    ["lists after taking the lease", "open-lease", leased, { kind: "list", fresh: false }],
    ["opens when the list shows no opening", "open-list", listed(), { kind: "open" }],
    [
      "takes the opening the list shows",
      "open-list",
      listed([made]),
      { kind: "take", incidentId: "inc-new" },
    ],
    [
      "lists afresh when another holder let go of the lease after this run's list was read",
      "open-list after another holder",
      listed([], T0 - 1),
      { kind: "list", fresh: true },
    ],
    [
      "reads a namesake the list gave without its updates",
      "open-list",
      listed([lean]),
      { kind: "get", incidentId: "inc-new" },
    ],
    [
      "opens nothing while a namesake cannot be read",
      "open-read",
      failed(FAILURES["server-error"]()),
      { kind: "refuse", message: expect.stringContaining("cannot be read") },
    ],
    [
      "reads the list again after a create got no answer",
      "opening",
      failed(FAILURES.timeout()),
      { kind: "list", fresh: true },
    ],
    [
      "reads the list again after a create answered 5xx",
      "opening",
      failed(FAILURES["server-error"]()),
      { kind: "list", fresh: true },
    ],
    ["stops after a create refused", "opening", failed(FAILURES.refused()), { kind: "refuse" }],
    [
      "reads the list again after a create answered 429, before any second create",
      "opening",
      failed(FAILURES["rate-limited"]()),
      { kind: "list", fresh: true },
    ],
    [
      "reads the account's services after a create answered 404, to tell what it means",
      "opening",
      failed(FAILURES["not-found"]()),
      { kind: "services" },
    ],
    [
      "names a service sent that the account does not list",
      "open-services",
      { kind: "services", ids: new Set(["svc-web"]) },
      {
        kind: "refuse",
        message: expect.stringMatching(
          /: the service answered POST \/v1\/status-pages\/incidents with 404, so nothing was opened\. The account has no service "svc-api" \(it lists 1 service\): fix "services:"/,
        ),
      },
    ],
    [
      "says the account, or a service without the create, when every service sent is listed",
      "open-services",
      { kind: "services", ids: new Set(["svc-api", "svc-web"]) },
      {
        kind: "refuse",
        message: expect.stringMatching(
          /a service sent is not one of the account's, that the account "acct-1" is not the API key's, or that the service does not offer creating incidents\. Every service sent is among the account's 2 services/,
        ),
      },
    ],
    [
      "says every cause when the services cannot be read",
      "open-services",
      failed(FAILURES["server-error"]()),
      {
        kind: "refuse",
        message: expect.stringMatching(
          /The account's services could not be read to check the 1 service sent \(503 Service Unavailable\)/,
        ),
      },
    ],
    [
      "takes what a create made before it posts anything",
      "opening",
      { kind: "incident", incident: made },
      { kind: "take", incidentId: "inc-new" },
    ],
    [
      "takes the incident the list shows after a create got no answer",
      "open-list after a create got no answer",
      listed([made]),
      { kind: "take", incidentId: "inc-new" },
    ],
    [
      "keeps a create the list does not show, and when it was sent",
      "open-list after a create got no answer",
      listed(),
      {
        kind: "refuse",
        keep: expect.objectContaining({
          id: "new:checkout-down",
          record: expect.objectContaining({ unanswered: { entry: 0, at: iso(T0 + 3_000) } }),
        }),
      },
    ],
    [
      "reads back a create answered without its update's id before anything else",
      "known-get after a create answered without ids",
      { kind: "incident", incident: made },
      { kind: "post" },
    ],
    [
      "posts the second entry once the create's answer gave the first's id",
      "known-take after a create",
      took,
      {
        kind: "post",
        body: expect.objectContaining({ description: second.message, notifySubscribers: true }),
      },
    ],
    [
      "reads back a post that got no answer",
      "send (post)",
      failed(FAILURES.timeout()),
      { kind: "get", incidentId: "inc-new" },
    ],
    [
      "reads back a post answered without its id",
      "send (post)",
      { kind: "update", update: update(undefined, second.message, T0) },
      { kind: "get" },
    ],
    [
      "stops after a post refused, keeping the incident it opened",
      "send (post)",
      failed(FAILURES.refused()),
      { kind: "refuse", keep: expect.objectContaining({ id: "inc-new" }) },
    ],
    [
      "takes the post the read shows",
      "reread after a post got no answer",
      { kind: "incident", incident: shownBoth },
      { kind: "done" },
    ],
    [
      "keeps a post the read does not show, and when it was sent",
      "reread after a post got no answer",
      { kind: "incident", incident: made },
      {
        kind: "refuse",
        keep: expect.objectContaining({
          record: expect.objectContaining({ unanswered: { entry: 1, at: iso(T0 + 5_000) } }),
        }),
      },
    ],
    [
      "counts a post answered without its id as made, whatever the read shows",
      "reread after a post answered without its id",
      { kind: "incident", incident: made },
      { kind: "done" },
    ],
    [
      "PUTs fields the status page shows otherwise before any entry",
      "known-get",
      { kind: "incident", incident: { ...made, name: "Renamed" } },
      { kind: "put" },
    ],
    [
      "posts the new entry of a known incident",
      "known-get",
      { kind: "incident", incident: made },
      { kind: "post" },
    ],
    [
      "says whether a 404 is a missing incident",
      "probe",
      failed(FAILURES["not-found"]()),
      { kind: "refuse", message: expect.stringContaining("does not exist") },
    ],
    [
      "or an operation the service lacks",
      "probe",
      { kind: "updates", updates: [] },
      { kind: "refuse", message: expect.stringContaining("does not offer the operations") },
    ],
    [
      "resolves with an update when a PUT did not take RESOLVED",
      "put",
      { kind: "incident", incident: incident("inc-1", [], { lastUpdateStatus: "MONITORING" }) },
      { kind: "lease", key: "incident:inc-1" },
    ],
    [
      "is done when the PUT took RESOLVED",
      "put",
      { kind: "incident", incident: incident("inc-1", [], { lastUpdateStatus: "RESOLVED" }) },
      { kind: "done" },
    ],
    [
      "lets go of a claimed incident that does not exist",
      "exists",
      failed(FAILURES["not-found"]()),
      { kind: "done", result: { op: "remove", outcome: "released" } },
    ],
    [
      "reads back a resolving update that got no answer",
      "resolve-post",
      failed(FAILURES.timeout()),
      { kind: "get" },
    ],
    [
      "reads a resolving update answered 429 before it posts it again",
      "resolve-post",
      failed(FAILURES["rate-limited"]()),
      { kind: "get", incidentId: "inc-new" },
    ],
    [
      "is done when the read shows it resolved",
      "resolve-reread",
      {
        kind: "incident",
        incident: incident("inc-new", [update("u9", "This incident is resolved.", T0, "RESOLVED")]),
      },
      { kind: "done" },
    ],
    [
      "posts no second resolving update in one run",
      "resolve-reread",
      { kind: "incident", incident: made },
      { kind: "refuse" },
    ],
  ])("%s", (_title, phase, reply, expected) => {
    expect(stepAfter(phase, reply)).toMatchObject(expected);
  });

  it("refuses, without `updates`, to reopen an incident its updates or its first PUT's answer show resolved, naming the update", () => {
    // Was test/engine/plain-cli.test.ts's: a decision, with no engine to show.
    const resolved = update("u9", "Fixed by the CDN change.", T0 - 60_000, "RESOLVED");
    expect(stepAfter("status-read", { kind: "updates", updates: [resolved] })).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(
        /^incident inc-1 was resolved on the status page at \S+ by update u9 \("Fixed by the CDN change\."\), but its definition says MONITORING/,
      ),
    });
    // A PUT that only set the field resolved it: its answer shows it, and nothing reopens it.
    const put = stepAfter("status-read", { kind: "updates", updates: [] });
    expect(put).toMatchObject({
      kind: "put",
      body: expect.not.objectContaining({ lastUpdateStatus: "MONITORING" }),
    });
    const answered = incident("inc-1", [], { lastUpdateStatus: "RESOLVED" });
    const moved = drive(status, [
      { kind: "updates", updates: [] },
      { kind: "incident", incident: answered },
    ]);
    expect(moved.step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("would reopen the incident"),
    });
  });

  it("sends no second create within the window of one that got no answer, and says until when", () => {
    const sent = iso(T0);
    const olds = record(fresh, {
      claimed: true,
      intentAt: sent,
      unanswered: { entry: 0, at: sent },
    });
    const within = drive({ ...opening, olds }, [leased, listed()], T0 + OUTCOME_WINDOW_MS - 5_000);
    expect(within.step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining(`until ${iso(T0 + OUTCOME_WINDOW_MS)}`),
    });
    const past = drive(
      { ...opening, olds },
      [leased, listed([], T0 + OUTCOME_WINDOW_MS)],
      T0 + OUTCOME_WINDOW_MS,
    );
    expect(past.step.kind).toBe("open");
    // A list read inside the window shows nothing for sure, however late its answer came.
    const readEarly = drive(
      { ...opening, olds },
      [leased, listed([], T0 + 60_000)],
      T0 + OUTCOME_WINDOW_MS,
    );
    expect(readEarly.step.kind).toBe("refuse");
  });

  it("sends no second post within the window of one that got no answer, and takes it if shown", () => {
    const olds = { ...knownRecord, unanswered: { entry: 1, at: iso(T0) } };
    const replies: Reply[] = [leased, took, { kind: "incident", incident: made }];
    expect(drive({ ...applying, olds }, replies, T0 + 1_000).step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("is not posted yet"),
    });
    const shown: Reply[] = [leased, took, { kind: "incident", incident: shownBoth }];
    expect(drive({ ...applying, olds }, shown, T0 + 1_000).step).toMatchObject({
      kind: "done",
      result: { record: { updateIds: ["u0", "u1"] } },
    });
  });

  it("finds an opening by the identity its state recorded after the name and first message were edited, and changes the first entry in place", () => {
    const olds = record(fresh, { claimed: true, intentAt: iso(T0 - 60_000) });
    const edited = entriesInputs({
      name: "Checkout payments fail",
      updates: [{ ...first, message: "Payments fail at checkout. [e0]" }, second],
    });
    const start = { op: "apply", inputs: edited, olds, context } as const;
    // Both openings' leases are taken, in one order: a killed holder may have sent either.
    expect(drive(start, []).step).toEqual({
      kind: "lease",
      key: expect.stringMatching(/^opening:Checkout fails\n/),
    });
    expect(drive(start, [leased]).step).toEqual({
      kind: "lease",
      key: expect.stringMatching(/^opening:Checkout payments fail\n/),
    });
    const found = [leased, leased, listed([made])];
    expect(drive(start, found).step).toEqual({ kind: "take", incidentId: "inc-new" });
    const read: Reply[] = [...found, took, leased, took, { kind: "incident", incident: made }];
    expect(drive(start, read).step).toMatchObject({ kind: "put" });
    const renamed = { ...made, name: "Checkout payments fail" };
    expect(drive(start, [...read, { kind: "incident", incident: renamed }]).step).toMatchObject({
      kind: "edit",
      updateId: "u0",
      body: expect.objectContaining({ notifySubscribers: false }),
    });
  });

  it("changes a posted entry with the date and status customers saw, so a PUT that dates an update without one to now never moves it", () => {
    const typo = entriesInputs({
      updates: [{ ...first, message: `${first.message} (typo fixed)` }, second],
    });
    const olds = record(fresh, { incidentId: "inc-new", updates: [first], updateIds: ["u0"] });
    const start = { op: "apply", inputs: typo, olds, context } as const;
    const posted = { ...update("u0", first.message ?? "", T0 - 3_600_000), status: "MONITORING" };
    const shown = { kind: "incident", incident: incident("inc-new", [posted]) } as const;
    const edit = (inputs: IncidentInputs) =>
      drive({ ...start, inputs }, [leased, took, shown]).step;
    expect(edit(typo)).toEqual({
      kind: "edit",
      incidentId: "inc-new",
      updateId: "u0",
      body: {
        description: `${first.message} (typo fixed)`,
        status: "MONITORING",
        notifySubscribers: false,
        publicIncidentUpdateDate: iso(T0 - 3_600_000),
      },
    });
    // A date declared is a date changed on purpose.
    const dated = entriesInputs({
      updates: [{ ...first, message: `${first.message} (typo fixed)`, at: iso(T0) }, second],
    });
    expect(edit(dated)).toMatchObject({ body: { publicIncidentUpdateDate: iso(T0) } });
  });

  it("resolves a removed incident with its closing word, notifying as it says", () => {
    const closing = { message: "Payments work again.", notify: true };
    const inputs = entriesInputs({ onRemove: "resolve", closing });
    const step = drive(removing({ incidentId: "inc-new" }, inputs), [
      leased,
      { kind: "incident", incident: made },
    ]).step;
    expect(step).toEqual({
      kind: "post",
      incidentId: "inc-new",
      body: { description: closing.message, status: "RESOLVED", notifySubscribers: true },
      // Recorded under the incident's lease before it is sent: no entry of `updates`.
      intent: { lease: "incident:inc-new", entry: RESOLVING_ENTRY, resource: "checkout-down" },
    });
  });

  it("reads the incident a lease's last holder recorded opening, which the list does not show yet, and takes it", () => {
    const recorded: Reply = { ...leased, made: { incidentId: "inc-new" } };
    expect(drive(opening, [recorded, listed([])]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
    const read: Reply = { kind: "incident", incident: made };
    expect(drive(opening, [recorded, listed([]), read]).step).toEqual({
      kind: "take",
      incidentId: "inc-new",
    });
  });

  it("opens when the incident a lease's holder recorded is gone (404), as when nothing matches", () => {
    const recorded: Reply = { ...leased, made: { incidentId: "inc-gone" } };
    const gone = failed(FAILURES["not-found"]());
    expect(drive(opening, [recorded, listed([]), gone]).step).toMatchObject({
      kind: "open",
      intent: { lease: expect.stringMatching(/^opening:/), entry: 0, resource: fresh.resource },
    });
  });

  it("posts no resolving update while the one a killed holder was sending may still be made", () => {
    const inputs = entriesInputs({ onRemove: "resolve" });
    const held: Reply = { ...leased, unanswered: { entry: RESOLVING_ENTRY, at: iso(T0) } };
    const step = drive(removing({ incidentId: "inc-new" }, inputs), [
      held,
      { kind: "incident", incident: made },
    ]).step;
    expect(step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("the update that resolves it got no answer"),
    });
  });

  it("refuses a second resource of the run that finds the opening another took", () => {
    expect(drive(opening, [leased, listed([made]), { kind: "taken" }]).step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("taken by another definition"),
    });
  });
});

/** Adoption decided on what the program read: no read of its own and no write where nothing differs. */
describe("the step machine adopting what the service shows already", () => {
  const listedAdopted = listed([shownAdopted], T0);
  const begun = [leased, took];

  it("with `updates`: takes the run's list instead of a read, and ends with every entry's id, sending nothing", () => {
    expect(drive(adopting, begun).step).toEqual({ kind: "list", fresh: false });
    expect(drive(adopting, [...begun, listedAdopted]).step).toMatchObject({
      kind: "done",
      result: { op: "apply", id: "inc-new", record: { updateIds: ["u0", "u1"] } },
    });
  });

  it("says once, in an adoption's words, which declared entries the incident shows already", () => {
    const end = drive(adopting, [...begun, listedAdopted]).step;
    expect(end.kind === "done" ? end.notes : end).toEqual([
      "incident inc-new: updates[0] and updates[1] of the definition are on the status page already, as declared: they are taken as posted, not posted again.",
    ]);
    expect(adoptedNote("inc-1", [4, 0, 1, 2, 6, 7])).toBe(
      "incident inc-1: updates[0] to updates[2], updates[4], updates[6] and updates[7] of the definition are on the status page already, as declared: they are taken as posted, not posted again.",
    );
  });

  it("says an entry posted since the last apply without its id recorded was posted by a run of ours", () => {
    const shown = incident("inc-new", [
      update("u0", first.message ?? "", T0 - 7_200_000, "INVESTIGATING"),
      update("u1", second.message ?? "", T0 - 30_000, "IDENTIFIED"),
    ]);
    const end = drive(applying, [leased, took, { kind: "incident", incident: shown }]).step;
    expect(end).toMatchObject({ kind: "done", result: { record: { updateIds: ["u0", "u1"] } } });
    expect(end.kind === "done" ? end.notes : end).toEqual([
      "incident inc-new: updates[1] is on the status page already (update u1), posted before its id could be recorded; it is recorded, not posted again.",
    ]);
  });

  it.each<[string, Reply[], Partial<typeof adopting>]>([
    ["the list shows an entry not posted yet", [listed([made])], {}],
    [
      "the list gave it without its updates",
      [listed([{ ...made, incidentUpdates: undefined } as never])],
      {},
    ],
    ["the list does not show it", [listed([])], {}],
    ["the list failed", [failed(FAILURES["server-error"]())], {}],
    ["the list shows another name", [listed([{ ...shownAdopted, name: "Other" }])], {}],
  ])("reads the incident alone, as ever, when %s", (_why, replies) => {
    expect(drive(adopting, [...begun, ...replies]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
  });

  it("reads the incident alone when another holder let go of its lease after the list was read", () => {
    const after = [
      { kind: "leased", releasedAt: T0 + 500 } as Reply,
      took,
      listed([shownAdopted], T0),
    ];
    expect(drive(adopting, after).step).toEqual({ kind: "get", incidentId: "inc-new" });
  });

  it.each<[string, IncidentInputs["observed"], IncidentRecord | undefined]>([
    ["the program could not read it", { kind: "unavailable", reason: "timeout" }, undefined],
    [
      "the program read other fields",
      observe(shownAdopted.incidentUpdates, { ...shownAdopted, severity: "MINOR" }),
      undefined,
    ],
    [
      "it is managed already (not an adoption)",
      observe(shownAdopted.incidentUpdates, shownAdopted),
      knownRecord,
    ],
  ])("reads the incident alone, without the list, when %s", (_why, observed, olds) => {
    const start = { ...adopting, inputs: { ...adopting.inputs, observed }, olds };
    expect(drive(start, begun).step).toEqual({ kind: "get", incidentId: "inc-new" });
  });

  const shownStatus = incident("inc-1", [
    update("v0", "Watching it. [s0]", T0 - 60_000, "MONITORING"),
  ]);
  const statusAdopting = (overrides: Partial<IncidentInputs> = {}) =>
    ({
      op: "apply",
      inputs: statusInputs({
        observed: observe(shownStatus.incidentUpdates, shownStatus),
        ...overrides,
      }),
      olds: undefined,
      context,
    }) as const;

  /** The record an operation ended with. */
  const recordOf = (step: Step) => {
    if (step.kind !== "done" || step.result.op !== "apply") throw new Error(step.kind);
    return step.result.record;
  };

  it("without `updates`: ends at once, with no PUT, when the read shows the declared fields and status", () => {
    const adopted = drive(statusAdopting(), []).step;
    expect(adopted).toMatchObject({ kind: "done", result: { op: "apply", id: "inc-1" } });
    // What the read showed, dated by its update; the apply is as recent as the read.
    expect(recordOf(adopted)).toMatchObject({
      status: "MONITORING",
      appliedAt: iso(T0 - 60_000),
      live: { status: "MONITORING", source: "update", at: iso(T0 - 60_000) },
      appliedUpdates: [],
    });
    expect(recordOf(adopted).live).not.toHaveProperty("update");
    expect(recordOf(adopted)).not.toHaveProperty("fieldsSeen");
    const claimed = { ...statusAdopting(), olds: record(statusInputs(), { claimed: true }) };
    expect(drive(claimed, []).step).toMatchObject({ kind: "done" });
  });

  it("without `updates`: the record of an adoption with no PUT is no change to a refresh, nor to the next up", () => {
    const start = statusAdopting();
    const adopted = recordOf(drive(start, []).step);
    const refreshed = drive({ op: "refresh", id: "inc-1", record: adopted, context }, [
      { kind: "updates", updates: shownStatus.incidentUpdates },
    ]).step;
    if (refreshed.kind !== "done" || refreshed.result.op !== "refresh") throw new Error();
    // `pulumi refresh` diffs the record it read against the stored inputs, as the next up does.
    for (const olds of [adopted, refreshed.result.record]) {
      const diff = drive(
        { op: "diff", olds, news: start.inputs, enforce: "observed", context },
        [],
      );
      expect(diff.step).toMatchObject({ kind: "done", result: { changes: false } });
    }
  });

  it("without `updates`: a PUT that changed fields the read showed with no time is no change to the refresh that finds that read in the inputs", () => {
    const untimed = { ...shownStatus, name: "Checkout is slow", updated_at: undefined };
    const inputs = statusInputs({ observed: observe(untimed.incidentUpdates, untimed) });
    const put = drive({ op: "apply", inputs, olds: record(statusInputs()), context }, []);
    expect(put.step.kind).toBe("put");
    const answered = incident("inc-1", shownStatus.incidentUpdates, { updated_at: iso(T0) });
    const applied = recordOf(drive(put.state, [{ kind: "incident", incident: answered }], T0).step);
    expect(applied.fieldsSeen).toBe(inputs.observed?.kind === "read" && inputs.observed.fields);
    const diff = (news: IncidentInputs) =>
      drive({ op: "diff", olds: applied, news, enforce: "observed", context }, []).step;
    expect(diff(inputs)).toMatchObject({ result: { changes: false } });
    // The same fields read again with the service's time of a change since: drift, as ever.
    const changed = { ...untimed, updated_at: iso(T0 + 60_000) };
    const again = statusInputs({ observed: observe(changed.incidentUpdates, changed, inputs) });
    expect(diff(again)).toMatchObject({ result: { changes: true } });
  });

  it.each<[string, Partial<IncidentInputs>, IncidentRecord | undefined, Step["kind"]]>([
    ["another status is declared", { status: "RESOLVED" }, undefined, "put"],
    ["another name is declared", { name: "Checkout is slow" }, undefined, "put"],
    ["a duration is declared (the read shows none)", { duration: 30 }, undefined, "put"],
    ["the program did not read it", { observed: undefined }, undefined, "list-updates"],
    ["it is managed already", {}, record(statusInputs()), "put"],
  ])("without `updates`: sends what it sends today when %s", (_why, overrides, olds, kind) => {
    const inputs = { ...statusAdopting(overrides).inputs };
    if ("observed" in overrides && overrides.observed === undefined) delete inputs.observed;
    expect(drive({ ...statusAdopting(), inputs, olds }, []).step.kind).toBe(kind);
  });
});

describe("the step machine checking each answer against what was sent", () => {
  /** Another team's incident, as a create's answer may name it. */
  const theirs = incident("inc-theirs", [update("t0", "Their payments fail.", T0, "IDENTIFIED")], {
    name: "Payments fail",
  });
  const shownBoth = incident("inc-new", [
    update("u0", first.message, T0),
    update("u1", second.message, T0 + 2_000, "IDENTIFIED"),
  ]);
  const sentThenAnswered = (answer: Reply, ...after: Reply[]) =>
    drive(opening, [leased, listed(), answer, ...after]);

  it.each<[string, ReturnType<typeof incident>]>([
    ["another incident's body", theirs],
    ["its name with another first message", { ...theirs, name: fresh.name }],
    ["another name with its first message", { ...made, name: "Payments fail" }],
  ])("reads the list afresh, taking nothing, when a create is answered with %s", (_how, body) => {
    const moved = sentThenAnswered({ kind: "incident", incident: body });
    expect(moved.step).toEqual({ kind: "list", fresh: true });
    expect(moved.state).toMatchObject({
      notes: [expect.stringContaining(`was answered with incident ${body.id}`)],
    });
    // The list does not show it: kept as a create that got no answer, never sent again blind.
    const kept = drive(moved.state, [listed([theirs])], T0 + 3_000);
    expect(kept.step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("No create is sent again until"),
      keep: { record: { incidentId: "", unanswered: { entry: 0, at: iso(T0 + 3_000) } } },
    });
    // The list shows ours: it is taken, and theirs is never written to.
    const found = drive(moved.state, [listed([theirs, made])], T0 + 3_000);
    expect(found.step).toEqual({ kind: "take", incidentId: "inc-new" });
  });

  it("reads a create answered without updates by its id, and takes it only when the read shows the incident sent", () => {
    const lean = sentThenAnswered({ kind: "incident", incident: { ...made, incidentUpdates: [] } });
    expect(lean.step).toEqual({ kind: "get", incidentId: "inc-new" });
    const ours = drive(lean.state, [{ kind: "incident", incident: made }], T0 + 4_000);
    expect(ours.step).toEqual({ kind: "take", incidentId: "inc-new" });
    const named = { ...theirs, id: "inc-new", name: fresh.name };
    const other = drive(lean.state, [{ kind: "incident", incident: named }], T0 + 4_000);
    expect(other.step).toEqual({ kind: "list", fresh: true });
    const unread = drive(lean.state, [failed(FAILURES["server-error"]())], T0 + 4_000);
    expect(unread.step).toEqual({ kind: "list", fresh: true });
  });

  it("reads back a post answered with another update, taking it only when the read shows the one sent", () => {
    const replies: Reply[] = [leased, took, { kind: "incident", incident: made }];
    const otherBody = { kind: "update", update: update("u9", "Their words.", T0 + 5_000) } as const;
    const moved = drive(applying, [...replies, otherBody]);
    expect(moved.step).toEqual({ kind: "get", incidentId: "inc-new" });
    const shown = drive(moved.state, [{ kind: "incident", incident: shownBoth }], T0 + 10_000);
    expect(shown.step).toMatchObject({
      kind: "done",
      result: { record: { updateIds: ["u0", "u1"] } },
    });
    const notShown = drive(moved.state, [{ kind: "incident", incident: made }], T0 + 10_000);
    expect(notShown.step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("updates[1] may not have been posted"),
      keep: { record: { unanswered: { entry: 1, at: iso(T0 + 4_000) } } },
    });
  });

  it("reads a create answered 429 back once, and sends it again only when the list does not show it", () => {
    const moved = sentThenAnswered(failed(FAILURES["rate-limited"]()));
    expect(moved.step).toEqual({ kind: "list", fresh: true });
    expect(drive(moved.state, [listed()], T0 + 4_000).step).toMatchObject({ kind: "open" });
    expect(drive(moved.state, [listed([made])], T0 + 4_000).step).toEqual({
      kind: "take",
      incidentId: "inc-new",
    });
    // The list unread: the create may have been made, and is kept as unanswered.
    const unread = drive(moved.state, [failed(FAILURES["server-error"]())], T0 + 4_000);
    expect(unread.step).toMatchObject({
      kind: "refuse",
      keep: { record: { unanswered: { entry: 0, at: iso(T0 + 3_000) } } },
    });
  });

  it("reads a post answered 429 back once, and sends it again only when the read does not show it", () => {
    const replies: Reply[] = [leased, took, { kind: "incident", incident: made }];
    const moved = drive(applying, [...replies, failed(FAILURES["rate-limited"]())]);
    expect(moved.step).toEqual({ kind: "get", incidentId: "inc-new" });
    expect(drive(moved.state, [{ kind: "incident", incident: made }]).step).toMatchObject({
      kind: "post",
      body: { description: second.message },
    });
    expect(drive(moved.state, [{ kind: "incident", incident: shownBoth }]).step).toMatchObject({
      kind: "done",
    });
    const unread = drive(moved.state, [failed(FAILURES["server-error"]())]);
    expect(unread.step).toMatchObject({
      kind: "refuse",
      keep: { record: { unanswered: { entry: 1 } } },
    });
  });

  it("stops sending again after a service answers 429 to every post, read back each time", () => {
    let moved = drive(applying, [leased, took, { kind: "incident", incident: made }]);
    let posts = 0;
    for (let round = 0; round < 40 && moved.step.kind === "post"; round += 1) {
      posts += 1;
      moved = drive(moved.state, [failed(FAILURES["rate-limited"]())]);
      if (moved.step.kind === "get")
        moved = drive(moved.state, [{ kind: "incident", incident: made }]);
    }
    expect(posts).toBe(THROTTLED_WRITES_MAX + 1);
    expect(moved.step).toMatchObject({ kind: "refuse", message: expect.stringContaining("429") });
  });
});

describe("the step machine's windows when the clock jumps", () => {
  const boot = "boot-1";
  const sent = iso(T0);
  const unansweredCreate = record(fresh, {
    claimed: true,
    intentAt: sent,
    unanswered: { entry: 0, at: sent, clock: { boot, ms: 5_000_000 } },
  });

  it.each([11, 31])(
    "sends no second create when the wall clock jumped %i minutes forward one minute after it was sent",
    (minutes) => {
      const jumped = T0 + minutes * 60_000;
      const clock = { boot, ms: 5_000_000 + 60_000 };
      const moved = drive(
        { ...opening, olds: unansweredCreate },
        [leased, listed()],
        jumped,
        clock,
      );
      // Nine minutes of its window are left by the monotonic clock, whatever the wall says.
      expect(moved.step).toMatchObject({
        kind: "refuse",
        message: expect.stringContaining(`until ${iso(jumped + 2_000 + 9 * 60_000 - 2_000)}`),
      });
    },
  );

  it("ends a window by the monotonic clock only once the wall clock says so too", () => {
    const clock = { boot, ms: 5_000_000 + OUTCOME_WINDOW_MS };
    const wallBehind = drive(
      { ...opening, olds: unansweredCreate },
      [leased, listed()],
      T0 + 60_000,
      clock,
    );
    expect(wallBehind.step.kind).toBe("refuse");
    const both = drive(
      { ...opening, olds: unansweredCreate },
      [leased, listed([], T0 + OUTCOME_WINDOW_MS)],
      T0 + OUTCOME_WINDOW_MS,
      clock,
    );
    expect(both.step.kind).toBe("open");
  });

  it("takes the wall clock at its word for a write recorded on another boot, or with no monotonic clock", () => {
    const later = T0 + OUTCOME_WINDOW_MS;
    const otherBoot = { boot: "boot-2", ms: 10 };
    const replies = [leased, listed([], later)];
    expect(drive({ ...opening, olds: unansweredCreate }, replies, later, otherBoot).step.kind).toBe(
      "open",
    );
    expect(drive({ ...opening, olds: unansweredCreate }, replies, later).step.kind).toBe("open");
  });

  it("sends no second post when the wall clock jumped forward, and records the monotonic clock of a post that got no answer", () => {
    const olds = { ...knownRecord, unanswered: { entry: 1, at: sent, clock: { boot, ms: 1_000 } } };
    const replies: Reply[] = [leased, took, { kind: "incident", incident: made }];
    const jumped = drive({ ...applying, olds }, replies, T0 + 31 * 60_000, { boot, ms: 61_000 });
    expect(jumped.step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("is not posted yet"),
    });
    const lost = drive(
      applying,
      [...replies, failed(FAILURES.timeout()), { kind: "incident", incident: made }],
      T0,
      { boot, ms: 0 },
    );
    expect(lost.step).toMatchObject({
      kind: "refuse",
      keep: {
        record: { unanswered: { entry: 1, at: iso(T0 + 4_000), clock: { boot, ms: 4_000 } } },
      },
    });
  });
});
