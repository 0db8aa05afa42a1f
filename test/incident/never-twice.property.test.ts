import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  IncidentCreateRequest,
  IncidentResponse,
  IncidentUpdate,
  IncidentUpdateRequest,
} from "../../src/api";
import {
  type Answer,
  type IncidentInputs,
  type IncidentRecord,
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
 * the service that loses, delays, empties, reorders and repeats answers, answers 429 and 5xx,
 * while the provider is killed between steps (restarted from what the state recorded last)
 * and a second stack declares the same incident. No sequence may open, post or notify twice,
 * or report applied what the service did not take; once the answers are whole again, the
 * incident is on the status page once, each entry posted once.
 *
 * Assumed, as the design states (docs/provider-and-program.md): a write carried out late is
 * carried out within a minute (`LATE_MS`), inside its ten-minute window; a run killed between
 * steps is restarted after that, and one killed between a write's intent and its send (the
 * write never sent, or held by the service) at once; the name and first message are
 * edited at most once while the opening is not recorded, and two stacks that declare the same
 * incident run the same revision of it until then.
 */

const LATE_MS = 60_000;
const STEP_MS = 1_000;

type WriteFault = "ok" | "lost" | "late" | "5xx" | "429" | "no-ids" | "no-updates";
type ReadFault = "ok" | "5xx" | "reordered" | "repeated";

/** Which entry a text is: every message carries its entry's token, an edit included. */
const tokenOf = (text: string) => /\[e\d+\]/.exec(text)?.[0] ?? text;

/** The service as the contract describes it, with the faults the run draws. */
class Service {
  now = T0;
  incidents: IncidentResponse[] = [];
  /** Updates made per entry, and notifications sent per entry. */
  readonly posts = new Map<string, number>();
  readonly notified = new Map<string, number>();
  private late: { due: number; apply: () => void }[] = [];
  private ids = 0;
  private writes = 0;
  private reads = 0;

  constructor(
    private writeFaults: readonly WriteFault[],
    private readFaults: readonly ReadFault[],
    private readonly delays: readonly number[],
  ) {}

  /** A write whose sender was killed as it left, held by the service `delay` ms, then made. */
  hold(step: Extract<Step, { kind: "open" | "post" }>, delay: number): void {
    this.late.push({ due: this.now + delay, apply: () => this.carry(step, "ok") });
  }

  /** Time passes; writes held back land when due. */
  advance(ms: number): void {
    this.now += ms;
    const due = this.late.filter((write) => write.due <= this.now);
    this.late = this.late.filter((write) => write.due > this.now);
    for (const write of due) write.apply();
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

  read(step: Extract<Step, { kind: "list" | "get" | "list-updates" }>): Reply {
    const fault = this.readFault();
    if (fault === "5xx") return failed(FAILURES["server-error"]());
    const shuffled = <T>(items: T[]) => (fault === "reordered" ? [...items].reverse() : items);
    const copy = (incident: IncidentResponse): IncidentResponse => ({
      ...incident,
      incidentUpdates: shuffled(incident.incidentUpdates.map((update) => ({ ...update }))),
    });
    if (step.kind === "list") {
      const entries = shuffled(this.incidents.map(copy));
      const repeated = fault === "repeated" ? [...entries, ...entries] : entries;
      return {
        kind: "listed",
        incidents: { entries: repeated, skipped: [] },
        readAt: this.now,
        inRun: new Set(),
      };
    }
    const incident = this.find(step.incidentId);
    if (incident === undefined) return failed(FAILURES["not-found"]());
    if (step.kind === "get") return { kind: "incident", incident: copy(incident) };
    return { kind: "updates", updates: copy(incident).incidentUpdates };
  }

  /** A write, carried out now, later or never, its answer whole, empty or lost, as drawn. */
  write(step: Extract<Step, { kind: "open" | "post" | "edit" | "put" }>): Reply {
    const fault = this.writeFault();
    if (fault === "5xx") return failed(FAILURES["server-error"]());
    if (fault === "429") return failed(FAILURES["rate-limited"]());
    const carry = (): Reply => this.carry(step, fault);
    if (fault === "late") {
      const delay = this.delays[this.writes % Math.max(1, this.delays.length)] ?? LATE_MS;
      this.late.push({ due: this.now + Math.min(delay, LATE_MS), apply: carry });
      return failed(FAILURES.timeout());
    }
    const reply = carry();
    return fault === "lost" ? failed(FAILURES.timeout()) : reply;
  }

  private carry(
    step: Extract<Step, { kind: "open" | "post" | "edit" | "put" }>,
    fault: WriteFault,
  ): Reply {
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
      const answer = {
        ...incident,
        incidentUpdates: incident.incidentUpdates.map((update) => ({ ...update })),
      };
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
    return {
      kind: "update",
      update: fault === "no-ids" || fault === "no-updates" ? unnamed : update,
    };
  }
}

/** A run of the provider for one stack: the machine's state, and what the run holds. */
interface Run {
  state: State;
  step: Step;
  leases: string[];
  taken: Set<string>;
  cache?: Extract<Reply, { kind: "listed" }>;
}

interface Stack {
  record: IncidentRecord | undefined;
  run: Run | undefined;
  /** The last operation ended: `done`, or a refusal's message. */
  ended?: string;
}

/** One machine of stacks against one account: the leases its runs share. */
class World {
  readonly stacks: Stack[];
  readonly held = new Map<string, Stack>();
  readonly released = new Map<
    string,
    { releasedAt: number; unanswered?: Unanswered | undefined; made?: { incidentId: string } }
  >();
  /** The write each lease's holder is sending, as the provider records it before it sends. */
  readonly intents = new Map<string, Unanswered>();
  declaration: IncidentInputs = entriesInputs();

  constructor(
    readonly service: Service,
    stacks: number,
  ) {
    this.stacks = Array.from({ length: stacks }, () => ({ record: undefined, run: undefined }));
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
      const moved = next(state, { kind: "begin", at: this.service.now });
      stack.run = { ...moved, leases: [], taken: new Set() };
      this.settle(stack);
      return;
    }
    const run = stack.run;
    const reply = this.send(stack, run);
    if (reply === undefined) return;
    const moved = next(run.state, { ...reply, at: this.service.now } as Answer);
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
        releasedAt: this.service.now,
        unanswered: unanswered ?? before?.unanswered,
        ...(made ? { made: { incidentId: made } } : before?.made ? { made: before.made } : {}),
      });
    }
    stack.run = undefined;
  }

  /**
   * kill -9: the run's work since its last record is lost; its leases are taken over as
   * `takeLease` does, a write it intended kept as one that got no answer.
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
      this.released.set(key, { ...before, releasedAt: this.service.now, unanswered });
    }
    stack.run = undefined;
  }

  /** kill -9 between two steps: it restarts after a while. */
  kill(stack: Stack): void {
    if (stack.run === undefined) return;
    this.abandon(stack);
    this.service.advance(LATE_MS);
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
    this.intents.set(step.intent.lease, { entry: step.intent.entry, at: iso(this.service.now) });
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
          made: released?.made,
        };
      }
      case "take": {
        const took = !run.taken.has(step.incidentId);
        run.taken.add(step.incidentId);
        return { kind: took ? "took" : "taken" };
      }
      case "list": {
        if (!step.fresh && run.cache) return { ...run.cache, inRun: run.taken };
        const listed = this.service.read(step);
        if (listed.kind === "listed") run.cache = listed;
        return listed.kind === "listed" ? { ...listed, inRun: run.taken } : listed;
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

  /** An apply reports what the service took: the incident, and every entry it names. */
  private expectTaken(record: IncidentRecord): void {
    const incident = this.service.incidents.find((shown) => shown.id === record.incidentId);
    expect(
      incident,
      `recorded ${record.incidentId}, which the service does not have`,
    ).toBeDefined();
    const shown = new Set(incident?.incidentUpdates.map((update) => update.id));
    for (const id of record.updateIds ?? [])
      if (id) expect(shown.has(id), `recorded update ${id}`).toBe(true);
    const tokens = new Set(incident?.incidentUpdates.map((update) => tokenOf(update.description)));
    const recorded = (record.updates ?? []).slice(0, record.updateIds?.length ?? 0);
    for (const entry of recorded)
      expect(tokens.has(tokenOf(entry.message)), `recorded ${entry.message}`).toBe(true);
  }

  /** Nothing opened, posted or notified twice. */
  expectOnce(): void {
    expect(this.service.incidents.length).toBeLessThanOrEqual(1);
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
  /** Below the run's kill rate: a kill -9 between two steps; above `inFlightAt`, in flight. */
  dice: fc.nat({ max: 29 }),
});

describe("never twice, whatever the answers (generated)", () => {
  it("opens, posts and notifies once, and reports applied only what the service took, through lost, late, empty, reordered and repeated answers, 429s, 5xx, kills (between steps, and between a write's intent and its send) and a second stack", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom<WriteFault>(
            "ok",
            "ok",
            "lost",
            "late",
            "5xx",
            "429",
            "no-ids",
            "no-updates",
          ),
          { minLength: 1, maxLength: 12 },
        ),
        fc.array(fc.constantFrom<ReadFault>("ok", "ok", "5xx", "reordered", "repeated"), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(fc.integer({ min: STEP_MS, max: LATE_MS }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(1, 2, 2),
        fc.array(action, { minLength: 20, maxLength: 200, size: "max" }),
        fc.option(fc.nat({ max: 200 }), { nil: undefined }),
        fc.constantFrom(0, 1, 4),
        /** Above it: a kill between a write's intent and its send, or with the write held. */
        fc.constantFrom(30, 26, 20),
        (writes, reads, delays, stacks, actions, editAt, killRate, inFlightAt) => {
          const world = new World(new Service(writes, reads, delays), stacks);
          actions.forEach(({ stack: index, dice }, at) => {
            if (at === editAt) world.edit();
            const stack = world.stacks[index % stacks] as Stack;
            if (dice < killRate) world.kill(stack);
            else if (dice >= inFlightAt) {
              const delay = delays[at % delays.length] ?? LATE_MS;
              world.killInFlight(stack, dice % 2 === 0, delay);
            } else world.tick(stack);
            world.expectOnce();
          });
          // The faults end, every window passes, and the stacks run until they are done.
          world.service.whole();
          world.service.advance(OUTCOME_WINDOW_MS + LATE_MS);
          for (let tick = 0; tick < 2_000; tick += 1) {
            const running = world.stacks.filter((stack) => stack.run !== undefined);
            if (running.length === 0) break;
            for (const stack of running) world.tick(stack);
          }
          for (let round = 0; round < 6; round += 1) {
            for (const stack of world.stacks) {
              do world.tick(stack);
              while (stack.run !== undefined);
            }
          }
          world.expectOnce();
          expect(world.service.incidents).toHaveLength(1);
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
