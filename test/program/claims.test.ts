import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import program from "../../index";
import { CLAIM_PHASE_VARIABLE } from "../../src/incident";
import { RUN_BY_VARIABLE } from "../../src/settings";
import { changesOf } from "./support/mock-engine";
import { type ProgramStack, startProgramStack } from "./support/program-stack";

/**
 * The program's part in the claim run of `incident-sync up` (src/incident/claim.ts), which
 * the engine runs targeted at the incidents new to the state; the kill it protects against is
 * R7 of `npm run reliability` (test/reliability/kill-loop-claims.test.ts).
 */
describe("the program in the claim run and the apply run after it", () => {
  let started: ProgramStack;
  const stats = () => started.sandbox.emulator.emulator.control.stats().byOperation;

  beforeAll(async () => {
    started = await startProgramStack("program-claims", "posts-update");
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await started?.close();
  });

  it("records every new incident without a PUT, after the one list read shows the declared ones exist, and outputs nothing", async () => {
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "claim");
    started.sandbox.emulator.emulator.control.resetStats();
    const run = await started.engine.run(program);
    expect(run.error).toBeUndefined();
    // Four adoptions and one new incident, whose claim records the intent to open it.
    expect(changesOf(run)).toEqual({ create: 5 });
    expect(stats().updateIncident).toBeUndefined();
    // The incident list, one page for the demo's four ids: no read per incident.
    expect(stats().listIncidents?.total).toBe(1);
    expect(stats().listIncidentUpdates).toBeUndefined();
    expect(stats().getIncident).toBeUndefined();
    expect(stats().listHeartbeatEvents).toBeUndefined();
    expect(run.outputs).toEqual({ accountId: started.sandbox.emulator.demo.accountId });
    expect(started.engine.stateOf("inc-api-errors")).toMatchObject({ claimed: true });
    expect(started.engine.stateOf("card-payments-declined")).toMatchObject({
      claimed: true,
      incidentId: "",
      intentAt: expect.any(String),
    });
    expect(stats().createIncident).toBeUndefined();
  });

  it("adopts the claimed incidents in the apply run, as a first up would", async () => {
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "apply");
    const run = await started.engine.run(program);
    expect(run.error).toBeUndefined();
    expect(changesOf(run)).toEqual({ update: 5 });
    expect(run.warnings).toEqual([]);
    await started.stack.expectLiveMatchesDefinitions();
    expect(started.engine.stateOf("inc-api-errors")).not.toHaveProperty("claimed");
    expect(run.outputs?.summary).toMatchObject({ incidents: 5, live: { unknown: 0 }, drifted: 0 });
    expect(stats().createIncident?.total).toBe(1);
  });

  it("warns once when the plain CLI skips checkpoints, where nothing claimed the new incidents", async () => {
    vi.stubEnv(CLAIM_PHASE_VARIABLE, undefined);
    vi.stubEnv("PULUMI_SKIP_CHECKPOINTS", "true");
    const run = await started.engine.run(program);
    expect(run.error).toBeUndefined();
    expect(run.warnings).toMatchInlineSnapshot(`
      [
        "PULUMI_SKIP_CHECKPOINTS=true: the state is written at the end of this run. If the run is killed, the incidents it adopted are on no record until a run completes: run \`pulumi cancel --yes\` and \`pulumi up\` again before you remove any definition, or removing it would not resolve its incident. \`incident-sync up\` has no such gap: it records new incidents in the state before applying them.",
      ]
    `);
  });

  it("names incident-sync's commands to a run incident-sync started, and warns no preview of its own", async () => {
    vi.stubEnv(CLAIM_PHASE_VARIABLE, undefined);
    vi.stubEnv("PULUMI_SKIP_CHECKPOINTS", "true");
    vi.stubEnv(RUN_BY_VARIABLE, "incident-sync");
    try {
      const run = await started.engine.run(program);
      expect(run.error).toBeUndefined();
      expect(run.warnings).toMatchInlineSnapshot(`
        [
          "PULUMI_SKIP_CHECKPOINTS=true: the state is written at the end of this run. If the run is killed, the incidents it adopted are on no record until a run completes: run \`incident-sync cancel --stack unit\` and \`incident-sync up --stack unit\` again before you remove any definition, or removing it would not resolve its incident.",
        ]
      `);
      const preview = await started.engine.run(program, { preview: true });
      expect(preview.warnings).toEqual([]);
    } finally {
      vi.stubEnv(RUN_BY_VARIABLE, undefined);
    }
  });
});
