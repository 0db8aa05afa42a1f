import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declareIncidentStack, type IncidentDefinitionInput } from "../../src";
import { changesOf, MOCK_ORGANIZATION, type MockEngine, type MockRun } from "./support/mock-engine";
import { type ProgramStack, startProgramStack } from "./support/program-stack";

const incidents: IncidentDefinitionInput[] = [
  {
    id: "inc-checkout-latency",
    name: "Checkout is slow",
    severity: "MAJOR",
    status: "INVESTIGATING",
    services: [{ id: "svc-checkout", name: "Checkout" }],
  },
  {
    id: "inc-login-failures",
    resource: "login",
    name: "Some logins fail",
    severity: "MINOR",
    status: "RESOLVED",
    services: [{ id: "svc-auth", name: "Sign-in" }],
  },
];

/**
 * A program that declares its incidents in code, as the README's "Incidents in code" shows:
 * one call of the package root's `declareIncidentStack`, with the observation of the status
 * page and the drift outputs a YAML project has, under Pulumi's mocks against the emulator.
 */
describe("incidents declared in code with declareIncidentStack", () => {
  let started: ProgramStack;
  let engine: MockEngine;
  const control = () => started.sandbox.emulator.emulator.control;
  const account = () => started.sandbox.emulator.demo.accountId;
  const program = (declared: readonly IncidentDefinitionInput[]) => async () =>
    (await declareIncidentStack({ incidents: declared })).outputs;

  beforeAll(async () => {
    started = await startProgramStack("code-first", "posts-update");
    ({ engine } = started);
  });

  afterAll(async () => {
    await started?.close();
  });

  it("adopts them, and the outputs name each by its place in the list", async () => {
    // The per-incident outputs, which name the file, are those of `outputs: full`.
    const run = await engine.run(program(incidents), { settings: { outputs: "full" } });
    expect(run.error).toBeUndefined();
    expect(changesOf(run)).toEqual({ create: 2 });
    expect(run.steps.map((step) => step.name).sort()).toEqual(["inc-checkout-latency", "login"]);
    expect(started.stack.live().get("inc-login-failures")).toMatchObject({
      name: "Some logins fail",
      status: "RESOLVED",
    });
    const outputs = run.outputs as { incidents: Record<string, unknown>; drift: unknown[] };
    expect(outputs.incidents["inc-login-failures"]).toMatchObject({
      file: "incidents[1]",
      declared: { status: "RESOLVED" },
      live: { status: "RESOLVED" },
    });
    expect(outputs.drift).toEqual([]);
  });

  it("sees a status changed on the status page and puts it back, as for a YAML definition", async () => {
    control().appendIncidentUpdate(account(), "inc-checkout-latency", {
      description: "Mitigated by hand from the UI",
      status: "MONITORING",
    });
    const previewed = await engine.run(program(incidents), { preview: true });
    expect(previewed.steps.filter((step) => step.op !== "same")).toMatchObject([
      { name: "inc-checkout-latency", op: "update", diffs: ["observed"] },
    ]);
    const run = await engine.run(program(incidents));
    expect(changesOf(run)).toEqual({ update: 1 });
    expect(started.stack.live().get("inc-checkout-latency")?.status).toBe("INVESTIGATING");
  });

  it("says drift is unknown, naming the incident, when the status page cannot be read", async () => {
    control().setFaults({ failRate: 1 });
    let run: MockRun;
    try {
      run = await engine.run(program(incidents), { settings: { retries: "0" } });
    } finally {
      control().setFaults({});
    }
    expect(run.error).toBeUndefined();
    expect(run.warnings.some((warning) => warning.startsWith("incidents[0]:"))).toBe(true);
    expect(run.outputs?.drift).toMatchObject([
      { incidentId: "inc-checkout-latency", file: "incidents[0]", liveStatus: "unknown" },
      { incidentId: "inc-login-failures", file: "incidents[1]", liveStatus: "unknown" },
    ]);
  });

  it("declares an incident on the stacks its stacks list names as Pulumi does, organization and project included", async () => {
    // Incidents the account does not have: the check of each one the stack declares names it.
    const scoped = (stacks: string[], index: number): IncidentDefinitionInput => ({
      id: `inc-scoped-${index}`,
      name: "Checkout is slow",
      severity: "MAJOR",
      status: "INVESTIGATING",
      services: [{ id: "svc-checkout", name: "Checkout" }],
      stacks,
    });
    const run = await engine.run(
      program([
        scoped(["unit"], 0),
        scoped([`${MOCK_ORGANIZATION}/unit`], 1),
        scoped([`${MOCK_ORGANIZATION}/incident-sync/unit`], 2),
        scoped(["other-org/unit"], 3),
        scoped([`${MOCK_ORGANIZATION}/other-project/unit`], 4),
        scoped(["prod"], 5),
      ]),
      { preview: true },
    );
    expect(run.error?.split("\n").map((line) => line.slice(0, line.indexOf(":")))).toEqual([
      "inc-scoped-0",
      "inc-scoped-1",
      "inc-scoped-2",
    ]);
  });

  it("removes an incident from the stack once its stacks list drops the stack, by its onRemove", async () => {
    // Was test/engine/team-safety.test.ts's: the stack filter and the removal are decisions.
    const scoped = (stacks: string[]): IncidentDefinitionInput[] => [
      { ...(incidents[0] as IncidentDefinitionInput), onRemove: "resolve", stacks },
      { ...(incidents[1] as IncidentDefinitionInput), stacks },
    ];
    expect((await engine.run(program(scoped(["unit"])))).error).toBeUndefined();
    const live = () => started.stack.live();
    const released = live().get("inc-login-failures");
    expect(live().get("inc-checkout-latency")?.status).toBe("INVESTIGATING");
    const moved = await engine.run(program(scoped(["prod"])));
    expect(moved.error).toBeUndefined();
    expect(changesOf(moved)).toEqual({ delete: 2 });
    expect(engine.stateOf("inc-checkout-latency")).toBeUndefined();
    // onRemove: resolve resolves it; the default, release, leaves the other as it was.
    expect(live().get("inc-checkout-latency")?.status).toBe("RESOLVED");
    expect(live().get("inc-login-failures")).toEqual(released);
  });

  it("fails the run on an invalid definition with every problem, as validate lists a file's", async () => {
    const broken = [
      ...incidents,
      { ...incidents[0], sevrity: "MAJOR" } as unknown as IncidentDefinitionInput,
    ];
    const run = await engine.run(program(broken));
    expect(run.steps).toEqual([]);
    expect(run.error).toMatchInlineSnapshot(`
      "the definitions in the program are not valid (3 problems); fix them first:
        incidents[0]:1:5: incident id "inc-checkout-latency" is also defined at incidents[2]:1:5; each incident must be defined once [duplicate-id]
        incidents[2]:1:5: incident id "inc-checkout-latency" is also defined at incidents[0]:1:5; each incident must be defined once [duplicate-id]
        incidents[2]:8:1: unknown field "sevrity"; did you mean "severity"? [unknown-key]"
    `);
  });
});
