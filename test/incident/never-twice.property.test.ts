import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  IncidentCreateRequest,
  IncidentResponse,
  IncidentUpdate,
  IncidentUpdateRequest,
  ListedIncident,
} from "../../src/api";
import {
  type Answer,
  type IncidentInputs,
  type IncidentRecord,
  type Monotonic,
  next,
  OUTCOME_WINDOW_MS,
  type Reply,
  type State,
  type Step,
  type Unanswered,
} from "../../src/incident";
import { ACCOUNT, entriesInputs, FAILURES, failed, iso, T0 } from "./support/machine";

/*
 * Never twice, whatever the answers: the machine of src/incident driven against a model of
 * the service that loses, delays, empties, reorders and repeats answers, answers 429 (before
 * or after carrying a write out), 5xx, or with another incident's body, lists late (leaving
 * out what was made in the last seconds), or leaves a namesake unreadable; while the provider
 * keeps one list per process as the plugin does, is killed between steps (restarted from what
 * the state recorded last), its wall clock jumps forward, and a second stack declares the same
 * incident. No sequence may open, post or notify twice, touch another team's incident, or
 * report applied what the service did not take; once the answers are whole again, the
 * incident is on the status page once, each entry posted once.
 *
 * Assumed, as the design states (docs/provider-and-program.md, ARCHITECTURE.md): a write
 * carried out late is carried out within a minute (`LATE_MS`), inside its ten-minute window;
 * a run killed between steps is restarted after that (its own writes in flight have landed,
 * and are listed), and one killed between a write's intent and its send (the write never sent,
 * or held by the service) at once; the name and first message are edited at most once while
 * the opening is not recorded, and two stacks that declare the same incident run the same
 * revision of it until then. A list that lags is drawn with one stack only, and a create
 * answered 429 after it was made only with a list that does not lag: a create read back by a
 * list that does not show it yet is beyond these safeguards.
 */

const LATE_MS = 60_000;
const STEP_MS = 1_000;
const BOOT = "boot-1";

type WriteFault =
  | "ok"
  | "lost"
  | "late"
  | "5xx"
  | "429"
  | "429-made"
  | "no-ids"
  | "no-updates"
  | "other-body"
  | "namesake-body";
type ReadFault = "ok" | "5xx" | "reordered" | "repeated" | "lean" | "skipped";

/** How one run's service answers, drawn once. */
interface ServiceDraw {
  writes: readonly WriteFault[];
  reads: readonly ReadFault[];
  delays: readonly number[];
  /** A list leaves out incidents and updates made in the last `lagMs`. */
  lagMs: number;
}

/** Every message carries its entry's token, an edit included; another team's, none. */
const tokenOf = (text: string) => /\[e\d+\]/.exec(text)?.[0] ?? text;

/** Another team's incident, on the status page from the start: never to be written to. */
const THEIRS: IncidentResponse = {
  id: "inc-theirs",
  name: "Payments fail",
  severity: "MINOR",
  services: [{ id: "svc-pay", name: "Payments", accountId: ACCOUNT }],
  incidentUpdates: [
    {
      id: "upd-theirs",
      description: "Their payments fail.",
      status: "INVESTIGATING",
      created_at: iso(T0 - 3_600_000),
      publicIncidentUpdateDate: iso(T0 - 3_600_000),
      notifySubscribers: true,
    },
  ],
  lastUpdateStatus: "INVESTIGATING",
  created_at: iso(T0 - 3_600_000),
  updated_at: iso(T0 - 3_600_000),
};

/** Another team's incident of our name, with another first message: not ours either. */
const NAMESAKE: IncidentResponse = {
  ...THEIRS,
  id: "inc-namesake",
  name: entriesInputs().name,
  incidentUpdates: [
    {
      ...(THEIRS.incidentUpdates[0] as IncidentUpdate),
      id: "upd-namesake",
      description: "Checkout was slow last week.",
    },
  ],
  lastUpdateStatus: "RESOLVED",
};
const FOREIGN = [THEIRS, NAMESAKE];
const UNTOUCHED = JSON.stringify(FOREIGN);

const made = (item: { created_at?: string | null | undefined }) =>
  Date.parse(item.created_at ?? "") || 0;

/** The service as the contract describes it, with the faults the run draws. */
class Service {
  now = T0;
  incidents: IncidentResponse[] = structuredClone(FOREIGN);
  /** Updates made per entry, and notifications sent per entry. */
  readonly posts = new Map<string, number>();
  readonly notified = new Map<string, number>();
  private late: { due: number; apply: () => void }[] = [];
  private ids = 0;
  private writes = 0;
  private reads = 0;
  private writeFaults: readonly WriteFault[];
  private readFaults: readonly ReadFault[];

  constructor(private readonly draw: ServiceDraw) {
    this.writeFaults = draw.writes;
    this.readFaults = draw.reads;
  }

  /** The incidents of the stacks under test: every one but another team's. */
  ours(): IncidentResponse[] {
    return this.incidents.filter((incident) => !FOREIGN.some((other) => other.id === incident.id));
  }

  /** Another team's incidents, as they are now. */
  theirs(): IncidentResponse[] {
    return this.incidents.filter((incident) => FOREIGN.some((other) => other.id === incident.id));
  }

  /** A write whose sender was killed as it left, held by the service `delay` ms, then made. */
  hold(step: Extract<Step, { kind: "open" | "post" }>, delay: number): void {
    this.late.push({ due: this.now + delay, apply: () => this.carry(step, "ok") });
  }

  /** Time passes; writes held back land when due, dated then. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const [due] = this.late.filter((write) => write.due <= end).sort((a, b) => a.due - b.due);
      if (due === undefined) break;
      this.late = this.late.filter((write) => write !== due);
      this.now = Math.max(this.now, due.due);
      due.apply();
    }
    this.now = end;
  }

  /** The faults end: every answer whole from now on. */
  whole(): void {
    this.writeFaults = [];
    this.readFaults = [];
  }

  private writeFault(): WriteFault {
    return this.writeFaults[this.writes++ % Math.max(1, this.writeFaults.length)] ?? "ok";
  }

  private readFault(): ReadFault {
    return this.readFaults[this.reads++ % Math.max(1, this.readFaults.length)] ?? "ok";
  }

  private find(id: string): IncidentResponse | undefined {
    return this.incidents.find((incident) => incident.id === id);
  }

  private made(body: IncidentUpdateRequest): IncidentUpdate {
    const token = tokenOf(body.description);
    this.posts.set(token, (this.posts.get(token) ?? 0) + 1);
    if (body.notifySubscribers) this.notified.set(token, (this.notified.get(token) ?? 0) + 1);
    return {
      id: `upd-${++this.ids}`,
      description: body.description,
      ...(body.status ? { status: body.status } : {}),
      created_at: iso(this.now),
      publicIncidentUpdateDate: iso(this.now),
      notifySubscribers: body.notifySubscribers ?? false,
    };
  }

  /** A read; `readAt` is the provider's to stamp. */
  read(step: Extract<Step, { kind: "list" | "get" | "list-updates" }>): Reply {
    const fault = this.readFault();
    if (fault === "5xx") return failed(FAILURES["server-error"]());
    const shuffled = <T>(items: T[]) => (fault === "reordered" ? [...items].reverse() : items);
    const copy = (incident: IncidentResponse): IncidentResponse => ({
      ...incident,
      incidentUpdates: shuffled(incident.incidentUpdates.map((update) => ({ ...update }))),
    });
    if (step.kind === "list") return this.list(fault, copy);
    const incident = this.find(step.incidentId);
    if (incident === undefined) return failed(FAILURES["not-found"]());
    if (step.kind === "get") return { kind: "incident", incident: copy(incident) };
    return { kind: "updates", updates: copy(incident).incidentUpdates };
  }

  /** The list: late by `lagMs`, its incidents without updates (`lean`), or unreadable. */
  private list(fault: ReadFault, copy: (incident: IncidentResponse) => IncidentResponse): Reply {
    const since = this.now - this.draw.lagMs;
    const listed = this.incidents
      .filter((incident) => made(incident) <= since)
      .map((incident) => {
        const shown = copy(incident);
        const updates = shown.incidentUpdates.filter((update) => made(update) <= since);
        return fault === "lean"
          ? ({ ...shown, incidentUpdates: undefined } as ListedIncident)
          : { ...shown, incidentUpdates: updates };
      });
    const ordered = fault === "reordered" ? [...listed].reverse() : listed;
    const entries = fault === "repeated" ? [...ordered, ...ordered] : ordered;
    const skipped =
      fault === "skipped"
        ? entries.map(({ id, name }, index) => ({ index, id, name, problem: "unreadable" }))
        : [];
    return {
      kind: "listed",
      incidents: { entries: fault === "skipped" ? [] : entries, skipped },
      readAt: 0,
      inRun: new Set(),
    };
  }

  /** A write, carried out now, later or never, its answer whole, empty, other or lost, as drawn. */
  write(step: Extract<Step, { kind: "open" | "post" | "edit" | "put" }>): Reply {
    const drawn = this.writeFault();
    // Beyond the safeguards (above): a create made, answered 429, then listed late.
    const fault =
      drawn === "429-made" && step.kind === "open" && this.draw.lagMs > 0 ? "429" : drawn;
    if (fault === "5xx") return failed(FAILURES["server-error"]());
    if (fault === "429") return failed(FAILURES["rate-limited"]());
    const carry = (): Reply => this.carry(step, fault);
    if (fault === "late") {
      const delay = this.draw.delays[this.writes % Math.max(1, this.draw.delays.length)] ?? LATE_MS;
      this.late.push({ due: this.now + Math.min(delay, LATE_MS), apply: carry });
      return failed(FAILURES.timeout());
    }
    const reply = carry();
    if (fault === "429-made") return failed(FAILURES["rate-limited"]());
    return fault === "lost" ? failed(FAILURES.timeout()) : reply;
  }

  private carry(
    step: Extract<Step, { kind: "open" | "post" | "edit" | "put" }>,
    fault: WriteFault,
  ): Reply {
    const other =
      fault === "other-body" ? THEIRS : fault === "namesake-body" ? NAMESAKE : undefined;
    if (step.kind === "open") {
      const body: IncidentCreateRequest = step.body;
      const [entry] = body.incidentUpdates;
      const incident: IncidentResponse = {
        id: `inc-${++this.ids}`,
        name: body.name,
        severity: body.severity,
        services: body.services,
        incidentUpdates: entry ? [this.made(entry)] : [],
        lastUpdateStatus: entry?.status ?? "INVESTIGATING",
        created_at: iso(this.now),
        updated_at: iso(this.now),
      };
      this.incidents.push(incident);
      const answer = structuredClone(other ?? incident);
      if (fault === "no-updates") answer.incidentUpdates = [];
      if (fault === "no-ids")
        answer.incidentUpdates = answer.incidentUpdates.map(({ id: _id, ...update }) => update);
      return { kind: "incident", incident: answer };
    }
    const incident = this.find(step.incidentId);
    if (incident === undefined) return failed(FAILURES["not-found"]());
    if (step.kind === "put") {
      Object.assign(incident, {
        name: step.body.name,
        severity: step.body.severity,
        updated_at: iso(this.now),
      });
      return { kind: "incident", incident: { ...incident } };
    }
    if (step.kind === "edit") {
      const update = incident.incidentUpdates.find((shown) => shown.id === step.updateId);
      if (update === undefined) return failed(FAILURES["not-found"]());
      update.description = step.body.description;
      return { kind: "update", update: { ...update } };
    }
    const update = this.made(step.body);
    incident.incidentUpdates.push(update);
    incident.lastUpdateStatus = update.status ?? incident.lastUpdateStatus;
    const { id: _id, ...unnamed } = update;
    if (other)
      return { kind: "update", update: { ...(other.incidentUpdates[0] as IncidentUpdate) } };
    return {
      kind: "update",
      update: fault === "no-ids" || fault === "no-updates" ? unnamed : update,
    };
  }
}

/** An operation of the provider for one stack: the machine's state, and what it holds. */
interface Run {
  state: State;
  step: Step;
  leases: string[];
  taken: Set<string>;
}

interface Stack {
  record: IncidentRecord | undefined;
  run: Run | undefined;
  /** The plugin process's list, read once and kept for every operation it serves. */
  cache?: Extract<Reply, { kind: "listed" }> | undefined;
  /** The last operation ended: `done`, or a refusal's message. */
  ended?: string;
}

/** One machine of stacks against one account: the leases its runs share, and its clocks. */
class World {
  readonly stacks: Stack[];
  readonly held = new Map<string, Stack>();
  readonly released = new Map<
    string,
    { releasedAt: number; unanswered?: Unanswered | undefined }
  >();
  /** The incident each lease's record names as made: at a post's intent, or at a release. */
  readonly made = new Map<string, { incidentId: string }>();
  /** The write each lease's holder is sending, as the provider records it before it sends. */
  readonly intents = new Map<string, Unanswered>();
  declaration: IncidentInputs = entriesInputs();
  /** How far the provider's wall clock is behind the service's until it jumps (ms). */
  behind = 0;

  constructor(
    readonly service: Service,
    stacks: number,
  ) {
    this.stacks = Array.from({ length: stacks }, () => ({ record: undefined, run: undefined }));
  }

  /** The provider's clocks: its wall clock, and the monotonic clock of the machine's boot. */
  private stamp(): { at: number; clock: Monotonic } {
    return { at: this.service.now - this.behind, clock: { boot: BOOT, ms: this.service.now } };
  }

  /** One step of a stack: its run begun, or its pending step sent and the next one decided. */
  tick(stack: Stack): void {
    if (stack.run === undefined) {
      const context = { accountId: ACCOUNT, inRun: new Set<string>() };
      // incident-sync up: a new incident is claimed (recorded) before it is applied.
      const state: State =
        stack.record === undefined
          ? { op: "claim", inputs: { ...this.declaration, claimOnly: true }, context }
          : { op: "apply", inputs: this.declaration, olds: stack.record, context };
      const moved = next(state, { kind: "begin", ...this.stamp() });
      stack.run = { ...moved, leases: [], taken: new Set() };
      this.settle(stack);
      return;
    }
    const run = stack.run;
    const stamp = this.stamp();
    const reply = this.send(stack, run);
    if (reply === undefined) return;
    const moved = next(run.state, { ...reply, ...stamp } as Answer);
    this.service.advance(STEP_MS);
    Object.assign(run, moved);
    this.settle(stack);
  }

  /** The end of an operation: what it returned becomes the stack's record. */
  private settle(stack: Stack): void {
    const run = stack.run;
    if (run === undefined) return;
    const { step } = run;
    if (step.kind === "done") {
      if (step.result.op === "claim" || step.result.op === "apply") {
        if (step.result.op === "apply") this.expectTaken(step.result.record);
        stack.record = step.result.record;
      }
      stack.ended = "done";
      const made = "record" in step.result ? step.result.record.incidentId : "";
      this.end(stack, undefined, made);
    } else if (step.kind === "refuse") {
      if (step.keep) stack.record = step.keep.record;
      stack.ended = step.message;
      this.end(stack, step.keep?.record.unanswered, step.keep?.record.incidentId ?? "");
    }
  }

  /** The leases let go, as `release` does: an intent is settled by the operation's end. */
  private end(stack: Stack, unanswered: Unanswered | undefined, made: string): void {
    for (const key of stack.run?.leases ?? []) {
      this.held.delete(key);
      this.intents.delete(key);
      const before = this.released.get(key);
      this.released.set(key, {
        releasedAt: this.stamp().at,
        unanswered: unanswered ?? before?.unanswered,
      });
      if (made) this.made.set(key, { incidentId: made });
    }
    stack.run = undefined;
  }

  /**
   * kill -9: the run's work since its last record is lost, with its process's list; its
   * leases are taken over as `takeLease` does, a write it intended kept as one that got no
   * answer.
   */
  private abandon(stack: Stack): void {
    for (const key of stack.run?.leases ?? []) {
      this.held.delete(key);
      const before = this.released.get(key);
      const intent = this.intents.get(key);
      this.intents.delete(key);
      const after = before?.unanswered;
      const unanswered =
        intent && (!after || Date.parse(intent.at) > Date.parse(after.at)) ? intent : after;
      this.released.set(key, { ...before, releasedAt: this.stamp().at, unanswered });
    }
    stack.run = undefined;
    stack.cache = undefined;
  }

  /** kill -9 between two steps: it restarts once its writes in flight have landed and are listed. */
  kill(stack: Stack, lagMs: number): void {
    if (stack.run === undefined) return;
    this.abandon(stack);
    this.service.advance(LATE_MS + lagMs);
  }

  /** A new run of the engine between operations: a new plugin process, a new list. */
  restart(stack: Stack): void {
    if (stack.run === undefined) stack.cache = undefined;
  }

  /**
   * kill -9 between a write's intent and its send (`sent` false), or while the service holds
   * it (`sent`: made `delay` ms later); the run is started again at once. Other steps: a tick.
   */
  killInFlight(stack: Stack, sent: boolean, delay: number): void {
    const step = stack.run?.step;
    if (step?.kind !== "open" && step?.kind !== "post") {
      this.tick(stack);
      return;
    }
    this.intends(stack, step);
    if (sent) this.service.hold(step, delay);
    this.abandon(stack);
  }

  /** What the provider does before a create or a post leaves: its intent, under its lease. */
  private intends(stack: Stack, step: Extract<Step, { kind: "open" | "post" }>): void {
    expect(stack.run?.leases, "a write's intent names a lease its run holds").toContain(
      step.intent.lease,
    );
    const { at, clock } = this.stamp();
    this.intents.set(step.intent.lease, { entry: step.intent.entry, at: iso(at), clock });
    // As the provider does: a post names the incident it is made on in the lease's record.
    if (step.kind === "post") this.made.set(step.intent.lease, { incidentId: step.incidentId });
  }

  private send(stack: Stack, run: Run): Reply | undefined {
    const { step } = run;
    switch (step.kind) {
      case "lease": {
        const holder = this.held.get(step.key);
        if (holder !== undefined && holder !== stack) return undefined;
        this.held.set(step.key, stack);
        run.leases.push(step.key);
        const released = this.released.get(step.key);
        return {
          kind: "leased",
          releasedAt: released?.releasedAt,
          unanswered: released?.unanswered,
          made: this.made.get(step.key),
        };
      }
      case "take": {
        const took = !run.taken.has(step.incidentId);
        run.taken.add(step.incidentId);
        return { kind: took ? "took" : "taken" };
      }
      case "list": {
        if (!step.fresh && stack.cache) return { ...stack.cache, inRun: run.taken };
        const readAt = this.stamp().at;
        const listed = this.service.read(step);
        if (listed.kind !== "listed") return listed;
        stack.cache = { ...listed, readAt };
        return { ...stack.cache, inRun: run.taken };
      }
      case "get":
      case "list-updates":
        return this.service.read(step);
      case "open":
      case "post":
        this.intends(stack, step);
        return this.service.write(step);
      case "edit":
      case "put":
        return this.service.write(step);
      default:
        throw new Error(`the model does not send ${step.kind}`);
    }
  }

  /** An apply reports what the service took: our incident, and every entry it names. */
  private expectTaken(record: IncidentRecord): void {
    const incident = this.service.ours().find((shown) => shown.id === record.incidentId);
    expect(
      incident,
      `recorded ${record.incidentId}, which the service does not have as ours`,
    ).toBeDefined();
    const shown = new Set(incident?.incidentUpdates.map((update) => update.id));
    for (const id of record.updateIds ?? [])
      if (id) expect(shown.has(id), `recorded update ${id}`).toBe(true);
    const tokens = new Set(incident?.incidentUpdates.map((update) => tokenOf(update.description)));
    const recorded = (record.updates ?? []).slice(0, record.updateIds?.length ?? 0);
    for (const entry of recorded)
      expect(tokens.has(tokenOf(entry.message)), `recorded ${entry.message}`).toBe(true);
  }

  /** Nothing opened, posted or notified twice; another team's incident untouched. */
  expectOnce(): void {
    expect(this.service.ours().length).toBeLessThanOrEqual(1);
    // Compared as text first: a deep equality on every step is most of this test's time.
    const theirs = this.service.theirs();
    if (JSON.stringify(theirs) !== UNTOUCHED) expect(theirs).toEqual(FOREIGN);
    for (const [token, count] of this.service.posts)
      expect(count, `posts of ${token}`).toBeLessThanOrEqual(1);
    for (const [token, count] of this.service.notified)
      expect(count, `notifications of ${token}`).toBeLessThanOrEqual(1);
  }

  /**
   * The name and first message edited in git, the entry's token kept: between runs, and with
   * a second stack only once the opening is recorded (both stacks run one revision until then).
   */
  edit(): void {
    const [first, ...rest] = this.declaration.updates ?? [];
    if (first === undefined || this.stacks.some((stack) => stack.run !== undefined)) return;
    const unrecorded = this.stacks.some((stack) => !stack.record?.incidentId);
    if (this.stacks.length > 1 && unrecorded) return;
    this.declaration = {
      ...this.declaration,
      name: `${this.declaration.name}, edited`,
      updates: [{ ...first, message: `${first.message} (edited)` }, ...rest],
    };
  }
}

const action = fc.record({
  stack: fc.nat({ max: 1 }),
  /**
   * Below the run's kill rate: a kill -9 between two steps; 29: a new engine run; from
   * `inFlightAt`: a kill between a write's intent and its send, or with the write held.
   */
  dice: fc.nat({ max: 29 }),
});

/** The provider's wall clock: on time, or behind and put right by a jump forward at `at`. */
const clockJump = fc.record({
  ms: fc.constantFrom(0, 0, 11 * 60_000, 31 * 60_000),
  at: fc.nat({ max: 200 }),
});

const services = fc.record({
  writes: fc.array(
    fc.constantFrom<WriteFault>(
      "ok",
      "ok",
      "lost",
      "late",
      "5xx",
      "429",
      "429-made",
      "no-ids",
      "no-updates",
      "other-body",
      "namesake-body",
    ),
    { minLength: 1, maxLength: 12 },
  ),
  reads: fc.array(
    fc.constantFrom<ReadFault>("ok", "ok", "5xx", "reordered", "repeated", "lean", "skipped"),
    { minLength: 1, maxLength: 12 },
  ),
  delays: fc.array(fc.integer({ min: STEP_MS, max: LATE_MS }), { minLength: 1, maxLength: 4 }),
  lagMs: fc.constantFrom(0, 0, 20_000, LATE_MS),
});

describe("never twice, whatever the answers (generated)", () => {
  it("opens, posts and notifies once, leaves another team's incident be, and reports applied only what the service took, through lost, late, empty, reordered, repeated and other answers, 429s before and after a write, 5xx, late lists, unreadable namesakes, one list per process, kills (between steps, and between a write's intent and its send), a jumped clock and a second stack", () => {
    fc.assert(
      fc.property(
        services,
        fc.constantFrom(1, 2, 2),
        fc.array(action, { minLength: 20, maxLength: 200, size: "max" }),
        fc.option(fc.nat({ max: 200 }), { nil: undefined }),
        fc.constantFrom(0, 1, 4),
        clockJump,
        /** From it: a kill between a write's intent and its send, or with the write held. */
        fc.constantFrom(30, 26, 20),
        (drawn, stacks, actions, editAt, killRate, jump, inFlightAt) => {
          // A list that lags is drawn with one stack only (the module comment says why).
          const draw = { ...drawn, lagMs: stacks === 1 ? drawn.lagMs : 0 };
          const world = new World(new Service(draw), stacks);
          world.behind = jump.ms;
          actions.forEach(({ stack: index, dice }, at) => {
            if (at === editAt) world.edit();
            if (at === jump.at) world.behind = 0;
            const stack = world.stacks[index % stacks] as Stack;
            if (dice < killRate) world.kill(stack, draw.lagMs);
            else if (dice === 29) world.restart(stack);
            else if (dice >= inFlightAt) {
              const delay = draw.delays[at % draw.delays.length] ?? LATE_MS;
              world.killInFlight(stack, dice % 2 === 0, delay);
            } else world.tick(stack);
            world.expectOnce();
          });
          // The faults end, every window passes, and the stacks run until they are done.
          world.service.whole();
          world.behind = 0;
          world.service.advance(OUTCOME_WINDOW_MS + LATE_MS + draw.lagMs);
          for (let tick = 0; tick < 2_000; tick += 1) {
            const running = world.stacks.filter((stack) => stack.run !== undefined);
            if (running.length === 0) break;
            for (const stack of running) world.tick(stack);
          }
          for (let round = 0; round < 6; round += 1) {
            for (const stack of world.stacks) {
              world.restart(stack);
              do world.tick(stack);
              while (stack.run !== undefined);
            }
          }
          world.expectOnce();
          expect(world.service.ours()).toHaveLength(1);
          const tokens = (world.declaration.updates ?? []).map((entry) => tokenOf(entry.message));
          for (const token of tokens) {
            expect(world.service.posts.get(token), `posts of ${token}`).toBe(1);
            expect(world.service.notified.get(token), `notifications of ${token}`).toBe(1);
          }
          expect(world.stacks.some((stack) => stack.ended === "done")).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
