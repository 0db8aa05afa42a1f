import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import program from "../../index";
import { createClient } from "../../src/api";
import { CLAIM_PHASE_VARIABLE, OUTCOME_WINDOW_MS } from "../../src/incident";
import { configKey } from "../../src/settings";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { changesOf, failuresOf, MockEngine } from "./support/mock-engine";
import { UNTHROTTLED } from "./support/program-stack";
import { setProjectDirectory } from "./support/project-directory";

/** A new incident of two entries, both notifying subscribers. */
function definition(resource: string, name: string, first: string): string {
  return [
    `resource: ${resource}`,
    `name: ${name}`,
    "severity: MAJOR",
    "services: [svc-api]",
    "updates:",
    "  - status: INVESTIGATING",
    `    message: ${first}`,
    "    notify: true",
    "  - status: IDENTIFIED",
    `    message: We found why ${resource} fails.`,
    "    notify: true",
    "",
  ].join("\n");
}

/**
 * The faults of issue 43 that end in a second notification unless the order of an apply
 * prevents them, played over HTTP against the emulator under Pulumi's mocks, whose engine
 * keeps the state across runs (a kill: the state as before the run; a partial failure: what
 * the provider kept). The real engine's part (its partial failures, two stacks at once, a
 * create carried out after its timeout) is test/reliability/never-twice-engine.test.ts.
 */
describe("never twice, in process against the emulator", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  let engine: MockEngine;
  const control = () => sandbox.emulator.emulator.control;
  const account = () => sandbox.emulator.demo.accountId;
  const api = () =>
    createClient({
      baseUrl: sandbox.emulator.url,
      accountId: account(),
      apiKey: sandbox.emulator.demo.apiKey,
    });
  const file = (resource: string) => join(project, "incidents", `${resource}.yaml`);
  const up = () => engine.run(program);
  /** The account's incidents of a name, as its public API lists them. */
  const named = async (...names: string[]) => {
    const page = await api().incidents.listPage({ limit: 100 });
    return page.entries.filter((incident) => names.includes(incident.name));
  };
  /**
   * An incident's updates in the order of its entries (their statuses: this file's clock
   * ticks in steps, so two updates may share a time).
   */
  const shownOf = async (incidentId: string) => {
    const order = ["INVESTIGATING", "IDENTIFIED"];
    const { incidentUpdates } = await api().incidents.get(incidentId);
    return [...incidentUpdates].sort(
      (a, b) => order.indexOf(a.status ?? "") - order.indexOf(b.status ?? ""),
    );
  };
  /** What reached the subscribers' inboxes about one incident, in the order of the alphabet. */
  const notified = (incidentId: string) =>
    control()
      .notifications(account())
      .filter((notification) => notification.incidentId === incidentId)
      .map((notification) => notification.description)
      .sort();

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date", "hrtime"], shouldAdvanceTime: true });
    sandbox = await startEmulatorSandbox("never-twice", "demo");
    project = mkdtempSync(join(tmpdir(), "incident-sync-never-twice-"));
    mkdirSync(join(project, "incidents"));
    writeFileSync(join(project, "Pulumi.yaml"), "name: incident-sync\nruntime: nodejs\n");
    writeFileSync(join(project, "incidents", "services.yaml"), "svc-api: Public API\n");
    setProjectDirectory(project);
    engine = new MockEngine({
      [configKey("baseUrl")]: sandbox.emulator.url,
      [configKey("accountId")]: account(),
      [configKey("apiKey")]: sandbox.emulator.demo.apiKey,
      ...UNTHROTTLED,
    });
  });

  /**
   * Ten minutes pass, for the service and the provider alike, by the wall clock and the
   * monotonic one, and a write's window ends. The clocks of this file only go forward: the
   * rate budget and the leases count on it.
   */
  const passWindow = () => vi.advanceTimersByTime(OUTCOME_WINDOW_MS);

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    control().setBehaviour({ createAnswer: "full" });
    control().setFaults({});
  });

  afterAll(async () => {
    await sandbox?.close();
    vi.useRealTimers();
    rmSync(project, { recursive: true, force: true });
  });

  it.each(["without-update-ids", "without-updates"] as const)(
    "counts the entry that rode in the create's body as posted when the create answers %s",
    async (createAnswer) => {
      const resource = `opened-${createAnswer}`;
      const name = `Checkout fails (${createAnswer})`;
      writeFileSync(file(resource), definition(resource, name, "We are looking into it."));
      control().setBehaviour({ createAnswer });
      const run = await up();
      expect(run.error).toBeUndefined();
      const [incident, ...more] = await named(name);
      expect(more).toEqual([]);
      const shown = await shownOf(incident?.id ?? "");
      expect(shown.map((update) => update.description)).toEqual([
        "We are looking into it.",
        `We found why ${resource} fails.`,
      ]);
      expect(notified(incident?.id ?? "")).toEqual(
        shown.map((update) => update.description).sort(),
      );
      // The first entry's id, read back, is recorded: the next up has nothing to send.
      expect(engine.stateOf(resource)?.updateIds).toEqual(shown.map((update) => update.id));
      control().resetStats();
      expect(changesOf(await up())).toEqual({});
      expect(control().stats().byOperation.postIncidentUpdate).toBeUndefined();
    },
  );

  it("takes nothing from a create answered 201 with another team's incident: that incident gets no update, and ours is opened once, each entry notified once", async () => {
    const theirs = await api().incidents.create({
      name: "Payments fail",
      severity: "MINOR",
      services: [{ id: "svc-api", name: "Public API", accountId: account() }],
      incidentUpdates: [
        { description: "Their payments fail.", status: "INVESTIGATING", notifySubscribers: true },
      ],
    });
    const resource = "search-down";
    writeFileSync(file(resource), definition(resource, "Search fails", "Searches time out."));
    // Every create and post is carried out, and answered with their incident's body.
    control().setFaults({ answerWithIncident: theirs.id });
    const run = await up();
    control().setFaults({});
    expect(run.error).toBeUndefined();
    const { incidentUpdates } = await api().incidents.get(theirs.id);
    expect(incidentUpdates.map((update) => update.description)).toEqual(["Their payments fail."]);
    expect(notified(theirs.id)).toEqual(["Their payments fail."]);
    const [ours, ...more] = await named("Search fails");
    expect(more).toEqual([]);
    expect(engine.stateOf(resource)).toMatchObject({ incidentId: ours?.id });
    const shown = await shownOf(ours?.id ?? "");
    expect(shown.map((update) => update.description)).toEqual([
      "Searches time out.",
      `We found why ${resource} fails.`,
    ]);
    expect(notified(ours?.id ?? "")).toEqual(shown.map((update) => update.description).sort());
    expect(engine.stateOf(resource)?.updateIds).toEqual(shown.map((update) => update.id));
    expect(changesOf(await up())).toEqual({});
  });

  it("reads back a create and a post answered 429 after they were carried out, and sends neither again", async () => {
    const resource = "mail-down";
    writeFileSync(file(resource), definition(resource, "Mail is late", "Mail arrives late."));
    control().setFaults({ throttledAfterWriteRate: 1, retryAfterSeconds: 0 });
    control().resetStats();
    const run = await up();
    control().setFaults({});
    expect(run.error).toBeUndefined();
    const { byOperation } = control().stats();
    expect(byOperation.createIncident).toEqual({ total: 1, byStatus: { "429": 1 } });
    expect(byOperation.postIncidentUpdate).toEqual({ total: 1, byStatus: { "429": 1 } });
    const [opened, ...more] = await named("Mail is late");
    expect(more).toEqual([]);
    const shown = await shownOf(opened?.id ?? "");
    expect(shown.map((update) => update.description)).toEqual([
      "Mail arrives late.",
      `We found why ${resource} fails.`,
    ]);
    expect(notified(opened?.id ?? "")).toEqual(shown.map((update) => update.description).sort());
    expect(engine.stateOf(resource)?.updateIds).toEqual(shown.map((update) => update.id));
  });

  it("keeps an incident opened when a post gets no answer, and finds it again after its name and first message are edited", async () => {
    const resource = "ledger-down";
    writeFileSync(file(resource), definition(resource, "Ledger fails", "Ledger entries fail."));
    // The second entry's post is sent, and its connection drops before the service has it.
    const real = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.method === "POST" && request.url.endsWith("/incident-updates")) {
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
        });
      }
      return real(request);
    });
    const failed = await up();
    vi.unstubAllGlobals();
    expect(failuresOf(failed)).toEqual([
      expect.stringMatching(
        /^ledger-down: incident \S+: updates\[1\] may not have been posted: the service did not answer the post sent at \S+, and does not show it yet\. It is not sent again until the service shows it or until \S+: a run before then reads again before it posts\.$/,
      ),
    ]);
    // What the create did is kept: the state knows the incident, its first entry, the post.
    const kept = engine.stateOf(resource);
    const [opened] = await named("Ledger fails");
    expect(kept).toMatchObject({
      incidentId: opened?.id,
      updateIds: [expect.any(String)],
      unanswered: { entry: 1 },
    });
    writeFileSync(
      file(resource),
      definition(resource, "Ledger sync fails", "Ledger sync fails for some accounts."),
    );
    // Within the post's window, the edits are made and the post waits, saying until when.
    const waiting = await up();
    expect(failuresOf(waiting)).toEqual([
      expect.stringContaining(
        `updates[1] is not posted yet: its post, sent at ${kept?.unanswered?.at}`,
      ),
    ]);
    // The window over, the entry is posted once.
    passWindow();
    expect((await up()).error).toBeUndefined();
    expect(await named("Ledger fails", "Ledger sync fails")).toEqual([
      expect.objectContaining({ id: opened?.id, name: "Ledger sync fails" }),
    ]);
    const shown = await shownOf(opened?.id ?? "");
    expect(shown.map((update) => update.description)).toEqual([
      "Ledger sync fails for some accounts.",
      "We found why ledger-down fails.",
    ]);
    // An edit in place notifies nobody: each entry reached the inboxes once.
    expect(notified(opened?.id ?? "")).toEqual([
      "Ledger entries fail.",
      "We found why ledger-down fails.",
    ]);
    expect(changesOf(await up())).toEqual({});
  });

  it("opens nothing while a create that got no answer may still be made, saying until when, and opens it once after", async () => {
    const resource = "cache-down";
    writeFileSync(file(resource), definition(resource, "Cache misses", "Pages load slowly."));
    // The create's connection drops before the service has it: not made, but nobody knows.
    const real = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const request = new Request(input, init);
      if (
        request.method === "POST" &&
        new URL(request.url).pathname === "/v1/status-pages/incidents"
      ) {
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
        });
      }
      return real(request);
    });
    const failed = await up();
    vi.unstubAllGlobals();
    const kept = engine.stateOf(resource);
    expect(kept).toMatchObject({ incidentId: "", unanswered: { entry: 0 } });
    const until = new Date(
      Date.parse(kept?.unanswered?.at ?? "") + OUTCOME_WINDOW_MS,
    ).toISOString();
    expect(failuresOf(failed)).toEqual([
      `${resource}: (new: ${resource}): the service did not answer the request that opens it, sent at ${kept?.unanswered?.at}, and does not show it opened. No create is sent again until the service shows it or until ${until}: a run before then reads again, and takes the incident if it shows.`,
    ]);
    control().resetStats();
    const waiting = await up();
    expect(failuresOf(waiting)).toEqual([
      `${resource}: (new: ${resource}): not opened: the request that opens it, sent at ${kept?.unanswered?.at}, got no answer, and the service does not show it yet. No create is sent again until the service shows it or until ${until}; run again then.`,
    ]);
    expect(control().stats().byOperation.createIncident).toBeUndefined();
    passWindow();
    expect((await up()).error).toBeUndefined();
    const incidents = await named("Cache misses");
    expect(incidents).toHaveLength(1);
    expect(notified(incidents[0]?.id ?? "")).toHaveLength(2);
  });

  it("opens nothing more when the wall clock jumps 11 minutes forward inside a create's window, and opens it once when the window has passed", async () => {
    const resource = "queue-late";
    writeFileSync(file(resource), definition(resource, "Queues lag", "Jobs start late."));
    const real = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.method === "POST" && new URL(request.url).pathname.endsWith("/incidents")) {
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
        });
      }
      return real(request);
    });
    await up();
    vi.unstubAllGlobals();
    expect(engine.stateOf(resource)).toMatchObject({ unanswered: { entry: 0 } });
    // The wall clock alone moves: by it the window is over, by the machine's clock it is not.
    vi.setSystemTime(Date.now() + 11 * 60_000);
    control().resetStats();
    expect(failuresOf(await up())).toEqual([
      expect.stringContaining("not opened: the request that opens it, sent at"),
    ]);
    expect(control().stats().byOperation.createIncident).toBeUndefined();
    passWindow();
    expect((await up()).error).toBeUndefined();
    const incidents = await named("Queues lag");
    expect(incidents).toHaveLength(1);
    expect(notified(incidents[0]?.id ?? "")).toHaveLength(2);
  });

  it("finds the incident a killed apply opened by the claim's intent, after its name and first message are edited", async () => {
    const resource = "queue-down";
    writeFileSync(file(resource), definition(resource, "Queue stalls", "Jobs wait in the queue."));
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "claim");
    expect((await up()).error).toBeUndefined();
    const claimed = engine.snapshot();
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "apply");
    expect((await up()).error).toBeUndefined();
    const [opened] = await named("Queue stalls");
    // Killed before the state was written: only the claim is on record.
    engine.restore(claimed);
    expect(engine.stateOf(resource)).toMatchObject({ claimed: true, incidentId: "" });
    writeFileSync(
      file(resource),
      readFileSync(file(resource), "utf8")
        .replace("Queue stalls", "Queue jobs stall")
        .replace("Jobs wait in the queue.", "Jobs wait in the queue for minutes."),
    );
    control().resetStats();
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "claim");
    expect((await up()).error).toBeUndefined();
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "apply");
    expect((await up()).error).toBeUndefined();
    const { byOperation } = control().stats();
    expect(byOperation.createIncident).toBeUndefined();
    expect(byOperation.postIncidentUpdate).toBeUndefined();
    expect(await named("Queue stalls", "Queue jobs stall")).toEqual([
      expect.objectContaining({ id: opened?.id, name: "Queue jobs stall" }),
    ]);
    expect(engine.stateOf(resource)).toMatchObject({ incidentId: opened?.id });
    expect(notified(opened?.id ?? "")).toEqual([
      "Jobs wait in the queue.",
      "We found why queue-down fails.",
    ]);
    const [first] = await shownOf(opened?.id ?? "");
    expect(first?.description).toBe("Jobs wait in the queue for minutes.");
  });
});
