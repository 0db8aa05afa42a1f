import { afterAll, beforeAll, describe, expect, it } from "vitest";
import program from "../../index";
import { STATE_TEXT_LIMIT } from "../../src/incident";
import { type ProgramStack, startProgramStack } from "./support/program-stack";

describe("text from the server in the stack's state", () => {
  let started: ProgramStack;

  beforeAll(async () => {
    started = await startProgramStack("program-state-size", "posts-update");
    const first = await started.engine.run(program);
    expect(first.error).toBeUndefined();
  });

  afterAll(async () => {
    await started?.close();
  });

  it("keeps the first 2,000 characters of a 200,000-character description, with a warning naming the incident", async () => {
    const { emulator } = started.sandbox;
    emulator.emulator.control.appendIncidentUpdate(emulator.demo.accountId, "inc-api-errors", {
      description: "y".repeat(200_000),
      status: "INVESTIGATING",
    });
    // The updates are in the outputs of `outputs: full`.
    const run = await started.engine.run(program, { settings: { outputs: "full" } });
    expect(run.error).toBeUndefined();
    const all = (run.outputs?.incidentUpdates ?? {}) as Record<string, { description: string }[]>;
    const updates = all["inc-api-errors"];
    const longest = Math.max(...(updates ?? []).map((update) => update.description.length));
    expect(longest).toBeLessThan(STATE_TEXT_LIMIT + 100);
    expect(
      updates?.some((update) =>
        update.description.endsWith("… [198000 more characters on the status page]"),
      ),
    ).toBe(true);
    expect(run.warnings).toHaveLength(1);
    expect(run.warnings[0]).toMatch(
      /^incidents\/api-errors\.yaml:\d+: update \S+ of incident inc-api-errors has a description of 200000 characters; the stack outputs keep its first 2000\.$/,
    );
  });
});
