import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import program from "../../index";
import { createClient, type IncidentUpdate } from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { configKey } from "../../src/settings";
import { changesOf, MockEngine } from "./support/mock-engine";
import { UNTHROTTLED } from "./support/program-stack";
import { setProjectDirectory } from "./support/project-directory";

const DEFINITION = [
  "resource: checkout-down",
  "name: Checkout is failing",
  "severity: MAJOR",
  "services: [svc-api]",
  "updates:",
  "  - status: INVESTIGATING",
  "    message: We are looking into failed chekouts.",
  "  - status: IDENTIFIED",
  "    message: We found the cause.",
  "",
].join("\n");

/**
 * A typo fixed in a posted update, in process under Pulumi's mocks against the emulator over
 * HTTP, under each thing an update PUT without a date may do: keep the update's date, or date
 * it now. Either way the update keeps the date customers saw, and the incident its status.
 */
describe.each(["kept", "now"] as const)(
  "an edit of a posted update, where a PUT without a date leaves it %s",
  (editDate) => {
    let emulator: RunningEmulator;
    let project: string;
    let engine: MockEngine;
    const client = () =>
      createClient({
        baseUrl: emulator.url,
        accountId: emulator.demo.accountId,
        apiKey: emulator.demo.apiKey,
      });
    const file = () => join(project, "incidents", "checkout-down.yaml");
    const incidentId = () => engine.stateOf("checkout-down")?.incidentId ?? "";
    const dates = (updates: readonly IncidentUpdate[]) =>
      Object.fromEntries(
        updates.map((update) => [update.description, update.publicIncidentUpdateDate]),
      );

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, seed: "demo", behaviour: { editDate } });
      project = mkdtempSync(join(tmpdir(), "incident-sync-edit-date-"));
      mkdirSync(join(project, "incidents"));
      writeFileSync(join(project, "Pulumi.yaml"), "name: incident-sync\nruntime: nodejs\n");
      writeFileSync(file(), DEFINITION);
      writeFileSync(join(project, "incidents", "services.yaml"), "svc-api: Public API\n");
      setProjectDirectory(project);
      engine = new MockEngine({
        [configKey("baseUrl")]: emulator.url,
        [configKey("accountId")]: emulator.demo.accountId,
        [configKey("apiKey")]: emulator.demo.apiKey,
        [configKey("outputs")]: "full",
        ...UNTHROTTLED,
      });
    });

    afterAll(async () => {
      await emulator?.close();
      rmSync(project, { recursive: true, force: true });
    });

    it("sends the update's own date with the fix, so it keeps its date and the incident its live status", async () => {
      expect((await engine.run(program)).error).toBeUndefined();
      // Posted an hour and half an hour ago, as customers read them.
      const { incidents } = client();
      const posted = await incidents.listUpdates(incidentId());
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      const halfHourAgo = new Date(Date.now() - 1_800_000).toISOString();
      for (const [update, at] of [
        [posted.find((u) => u.status === "INVESTIGATING"), hourAgo],
        [posted.find((u) => u.status === "IDENTIFIED"), halfHourAgo],
      ] as const) {
        await incidents.changeUpdate(incidentId(), update?.id ?? "", {
          description: update?.description ?? "",
          status: update?.status === "INVESTIGATING" ? "INVESTIGATING" : "IDENTIFIED",
          publicIncidentUpdateDate: at,
          notifySubscribers: false,
        });
      }
      writeFileSync(file(), readFileSync(file(), "utf8").replace("chekouts", "checkouts"));
      emulator.emulator.control.resetStats();
      const run = await engine.run(program);
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({ update: 1 });
      expect(emulator.emulator.control.stats().byOperation.updateIncidentUpdate?.total).toBe(1);
      expect(dates(await incidents.listUpdates(incidentId()))).toEqual({
        "We are looking into failed checkouts.": hourAgo,
        "We found the cause.": halfHourAgo,
      });
      expect(engine.stateOf("checkout-down")?.appliedUpdates).toEqual([
        expect.objectContaining({ publicIncidentUpdateDate: hourAgo }),
      ]);
      // The next run reads the status page: its newest update is the one customers saw last.
      const next = await engine.run(program);
      expect(next.error).toBeUndefined();
      const shown = next.outputs?.incidents as Record<string, { live: unknown }>;
      expect(shown[incidentId()]?.live).toEqual(expect.objectContaining({ status: "IDENTIFIED" }));
      expect(next.outputs?.drift).toEqual([]);
    });
  },
);
