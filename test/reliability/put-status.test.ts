import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/definitions";
import type { PutStatus, RunningEmulator } from "../../src/emulator";
import { type EngineLocation, type OperationOptions, resolveEngine } from "../../src/engine";
import type { AppliedRecord } from "../../src/reports/drift/applied";
import { copyCheckout, reuseBuild } from "../engine/support/checkout";
import { demoOperation } from "../engine/support/demo-operation";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { changesOf, type Ran, ran } from "../engine/support/outcomes";
import { appliedOf, demoStack } from "../support/demo-stack";

const timeout = 300_000;

/**
 * Under the PUT the emulator does not default to (`sets-field`), on the real engine: `up`
 * converges in one run, drift and refresh tell the truth, the reopen guard holds. `npm test`
 * runs the same in process under both (test/program/program.test.ts); this is the reliability run's.
 */
describe.each<PutStatus>(["sets-field"])("with a service whose PUT %s", (putStatus) => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let project: string;
  let output: string[] = [];

  const run = async (operation: OperationOptions["operation"]): Promise<Ran> =>
    ran(
      await demoOperation(
        { sandbox: sandbox!, engine, project, stackName: "put-status" },
        operation,
        // `outputs: full` exports `incidents`, what `drift --applied` reads here.
        { onOutput: (text) => output.push(text), settings: { retries: "8", outputs: "full" } },
      ),
    );
  const stack = () => demoStack(sandbox!, () => project);
  const live = () => stack().live();
  const client = () => stack().client();
  const setStatus = (file: string, from: string, to: string) =>
    stack().edit(file, (text) => {
      expect(text).toContain(`status: ${from}`);
      return text.replace(`status: ${from}`, `status: ${to}`);
    });
  const outputsApplied = (outcome: Ran) => appliedOf(outcome.outputs?.incidents?.value);
  const driftWith = (applied: Map<string, AppliedRecord>) => stack().driftWith(applied);

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox(`put-${putStatus}`, "demo", { putStatus });
    ({ root, emulator } = sandbox);
    project = copyCheckout(join(root, "project"));
    reuseBuild(project);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "adopts an incident whose live status its updates do not show, converging in the one up",
    async () => {
      // Someone set the status with a PUT before incident-sync managed the incident: under
      // sets-field its updates still say INVESTIGATING, the declared status.
      const { definitions } = await loadDefinitions(join(project, "incidents"));
      const checkout = definitions.find((d) => d.definition.id === "inc-checkout-latency");
      expect(checkout?.definition.status).toBe("INVESTIGATING");
      const answer = await client().incidents.update("inc-checkout-latency", {
        name: "Slow checkout",
        severity: "MEDIUM",
        services: [{ id: "svc-checkout", name: "Checkout", accountId: emulator.demo.accountId }],
        lastUpdateStatus: "IDENTIFIED",
      });
      expect(answer.lastUpdateStatus).toBe("IDENTIFIED");
      const posted = answer.incidentUpdates.some((u) => u.status === "IDENTIFIED");
      expect(posted).toBe(putStatus === "posts-update");

      const up = await run("up");
      expect(up.result.ok).toBe(true);
      expect(changesOf(up)).toEqual({ create: 5 });
      await stack().expectLiveMatchesDefinitions();
      expect(up.outputs?.drift?.value).toEqual([]);
    },
    timeout,
  );

  it(
    "applies a status change from git in one up, then changes nothing on the next",
    async () => {
      setStatus("storefront.yaml", "INVESTIGATING", "MONITORING");
      const up = await run("up");
      expect(up.result.ok).toBe(true);
      expect(changesOf(up)).toEqual({ update: 1 });
      expect(live().get("inc-checkout-latency")?.status).toBe("MONITORING");
      expect(up.outputs?.drift?.value).toEqual([]);

      const again = await run("up");
      expect(again.result.ok).toBe(true);
      expect(changesOf(again)).toEqual({});

      // drift with the stack's applied statuses: in sync, whatever the updates still show.
      const report = await driftWith(outputsApplied(again));
      expect(report.summary).toMatchObject({ definitions: 5, inSync: 5, drifted: 0 });
    },
    timeout,
  );

  it(
    "refuses to reopen an incident resolved on the status page, and drift and refresh see the resolve",
    async () => {
      const lastApply = outputsApplied(await run("up"));
      emulator.emulator.control.editIncident(emulator.demo.accountId, "inc-checkout-latency", {
        status: "RESOLVED",
      });

      output = [];
      const up = await run("up");
      expect(up.result.ok).toBe(false);
      expect(output.join("")).toContain("inc-checkout-latency was resolved on the status page");
      expect(live().get("inc-checkout-latency")?.status).toBe("RESOLVED");

      const report = await driftWith(lastApply);
      expect(report.definitions.find((d) => d.id === "inc-checkout-latency")).toMatchObject({
        state: "drifted",
        liveStatus: "RESOLVED",
      });
      expect(report.summary).toMatchObject({ inSync: 4, drifted: 1 });

      const refreshed = await run("refresh");
      expect(refreshed.result.ok).toBe(true);
      expect(changesOf(refreshed)).toEqual({ update: 1 });
    },
    timeout,
  );
});
