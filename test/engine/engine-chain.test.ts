import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import {
  type EngineLocation,
  EngineOperationError,
  type EngineStack,
  openEngineStack,
  resolveEngine,
} from "../../src/engine";
import { filesContaining } from "./files";

const program = join(__dirname, "fixtures", "one-incident-program.cjs");
const engineTimeout = 180_000;

describe("the real Pulumi engine driving a dynamic provider against the emulator", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let stateDir: string;
  let stack: EngineStack;
  const engineOutput: string[] = [];

  beforeAll(async () => {
    // Builds the CLI on a machine that has none yet, so no test here is ever skipped.
    engine = await resolveEngine();
    emulator = await startEmulator({ port: 0, seed: "demo" });
    stateDir = mkdtempSync(join(tmpdir(), "incident-sync-engine-"));
    stack = await openEngineStack({
      stackName: "engine-test",
      stateDir,
      passphrase: "engine-test-passphrase",
      program,
      engine,
      onOutput: (text) => engineOutput.push(text),
      config: {
        "incident-sync:baseUrl": { value: emulator.url },
        "incident-sync:accountId": { value: emulator.demo.accountId },
        "incident-sync:apiKey": { value: emulator.demo.apiKey, secret: true },
      },
    });
  }, 1_800_000);

  afterAll(async () => {
    await emulator?.close();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it("uses a CLI whose version matches the @pulumi/pulumi package", () => {
    expect(engine.version).toBe(engine.sdkVersion);
  });

  it(
    "creates the resource with up, its provider having called the emulator with the secret key",
    async () => {
      const up = await stack.up();
      expect(up.result).toBe("succeeded");
      expect(up.changes).toEqual({ create: 2 });
      expect(up.outputs.serverName?.value).toBe("Slow checkout for some customers in EU");
      // Only the server knows the service's display name: the value proves a real round trip.
      expect(up.outputs.serviceNames?.value).toEqual(["Checkout"]);
    },
    engineTimeout,
  );

  it("keeps the API key out of the state, the workspace files and the engine's output", () => {
    const leaks = filesContaining(stateDir, emulator.demo.apiKey);
    expect(leaks).toEqual([]);
    expect(engineOutput.join("")).not.toContain(emulator.demo.apiKey);
  });

  it(
    "reports no changes on a refreshing preview that expects none",
    async () => {
      const preview = await stack.preview({ expectNoChanges: true, refresh: true });
      expect(preview.changed).toBe(false);
      expect(preview.changes).toEqual({ same: 2 });
    },
    engineTimeout,
  );

  it(
    "fails a preview that expects no changes when an input changed",
    async () => {
      await stack.setConfig({ "incident-sync:probeName": { value: "Checkout is slow again" } });
      const failure = await stack.preview({ expectNoChanges: true }).catch((error) => error);
      expect(failure).toBeInstanceOf(EngineOperationError);
      const [headline, reason] = (failure as EngineOperationError).message.split("\n");
      expect(`${headline}\n${reason}`).toMatchInlineSnapshot(`
        "pulumi preview on stack engine-test failed:
        error: no changes were expected for preview but changes were proposed"
      `);
      const preview = await stack.preview();
      expect(preview.changes).toEqual({ same: 1, update: 1 });
      await stack.setConfig({
        "incident-sync:probeName": { value: "Slow checkout for some customers in EU" },
      });
    },
    engineTimeout,
  );

  it(
    "refreshes the stack without drift",
    async () => {
      const refresh = await stack.refresh({ expectNoChanges: true });
      expect(refresh.result).toBe("succeeded");
      expect(refresh.changed).toBe(false);
    },
    engineTimeout,
  );

  it(
    "deletes every resource with destroy",
    async () => {
      const destroy = await stack.destroy();
      expect(destroy.result).toBe("succeeded");
      expect(destroy.changes).toEqual({ delete: 2 });
      expect(await stack.outputs()).toEqual({});
    },
    engineTimeout,
  );
});
