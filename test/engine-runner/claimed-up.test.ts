import { describe, expect, it } from "vitest";
import { type ClaimingStack, claimThenApply } from "../../src/engine/claimed-up";
import type { StackExport } from "../../src/engine/stack-run";
import { INCIDENT_TYPE, incidentUrn, upRun } from "./support/stack-runs";

/** A stack whose claim runs record only `recordable`, and whose apply updates what it is given. */
function fakeStack(held: string[], recordable: Set<string>) {
  const state = new Set(held);
  const calls: { args: string[]; phase: string }[] = [];
  const logs: string[] = [];
  const result = upRun;
  const exported = (): StackExport => ({
    version: 3,
    deployment: {
      resources: [...state].map((name) => ({ urn: incidentUrn(name), type: INCIDENT_TYPE })),
    },
  });
  const named = (args: string[], flag: string) =>
    args.flatMap((arg, index) =>
      args[index - 1] === flag ? [arg.slice(arg.lastIndexOf("::") + 2)] : [],
    );
  const stack: ClaimingStack = {
    bareName: "dev",
    project: "incidents",
    stackName: "dev",
    aborted: () => false,
    log: (line) => logs.push(line),
    prepare: async () => exported(),
    exportState: async () => exported(),
    run: async (args, phase) => {
      calls.push({ args, phase });
      if (phase === "claim") {
        const targets = named(args, "--target");
        for (const name of targets) if (recordable.has(name)) state.add(name);
        return result(
          targets.map((resource) => ({
            resource,
            op: "create",
            diffs: [],
            warnings: [],
            inputs: { incidentId: resource },
            ...(recordable.has(resource) ? {} : { error: `GET ${resource} failed: 503` }),
          })),
        );
      }
      const excluded = new Set(named(args, "--exclude"));
      return result(
        [...state]
          .filter((name) => !excluded.has(name) && !held.includes(name))
          .map((resource) => ({ resource, op: "update", diffs: ["name"], warnings: [] })),
      );
    },
  };
  return { stack, calls, logs };
}

describe("up with claims", () => {
  it("claims the new incidents, once more those not recorded, and leaves out of the apply those still unrecorded", async () => {
    const { stack, calls, logs } = fakeStack(["kept"], new Set(["new-a"]));
    const run = await claimThenApply(stack, ["up", "--yes"], {
      claim: ["kept", "new-a", "new-b", "renamed"],
      aliases: { renamed: ["kept"] },
    });
    expect(calls.map((call) => call.phase)).toEqual(["claim", "claim", "apply"]);
    expect(calls[0]?.args.filter((arg) => arg.startsWith("urn:"))).toEqual([
      incidentUrn("new-a"),
      incidentUrn("new-b"),
    ]);
    expect(calls[1]?.args.filter((arg) => arg.startsWith("urn:"))).toEqual([incidentUrn("new-b")]);
    expect(calls[2]?.args.slice(-2)).toEqual(["--exclude", incidentUrn("new-b")]);
    expect(logs).toEqual([
      "Recording 2 incident(s) new to stack dev in its state before applying them, so that a run killed midway cannot forget what it adopted.",
      "Could not record new-b (GET new-b failed: 503); trying once more.",
      "Still could not record new-b (GET new-b failed: 503): this run leaves it out, so nothing is adopted without a record; the next up tries again.",
    ]);
    expect(run.ok).toBe(false);
    expect(run.durationMs).toBe(3_000);
    expect(run.incidents.map((step) => [step.resource, step.op, step.error])).toEqual([
      ["new-a", "create", undefined],
      ["new-b", "create", "GET new-b failed: 503"],
    ]);
  });

  it("runs the apply alone when nothing is new", async () => {
    const { stack, calls, logs } = fakeStack(["kept"], new Set());
    const run = await claimThenApply(stack, ["up"], { claim: ["kept"] });
    expect(calls.map((call) => call.phase)).toEqual(["apply"]);
    expect(logs).toEqual([]);
    expect(run.ok).toBe(true);
  });
});
