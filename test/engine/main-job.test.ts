import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EngineLocation, resolveEngine } from "../../src/engine";
import { formatOutputs, runMainJob } from "../../src/engine/main-job";

const repoRoot = join(__dirname, "..", "..");

describe("the main job behind npm start", () => {
  let engine: EngineLocation;
  let stateDir: string;

  beforeAll(async () => {
    engine = await resolveEngine();
    stateDir = mkdtempSync(join(tmpdir(), "incident-sync-main-job-"));
    if (!existsSync(join(repoRoot, "dist", "index.js"))) {
      throw new Error("dist/index.js is missing: run `npm run build` (npm test does) first.");
    }
  }, 1_800_000);

  afterAll(() => {
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it("applies the compiled program against the demo emulator, then finds nothing to change on a second run", async () => {
    const options = { stateDir, engine, repoRoot, onOutput: false as const, log: () => {} };
    const first = await runMainJob(options);
    expect(first.up.result).toBe("succeeded");
    expect(first.up.changed).toBe(true);
    expect(first.up.changes.create ?? 0).toBeGreaterThan(0);

    // A new emulator process on the same data file and, when free, the same port.
    const second = await runMainJob(options);
    expect(second.up.result).toBe("succeeded");
    expect(second.up.changed).toBe(false);
    expect(second.emulatorUrl).toBe(first.emulatorUrl);
    expect(Object.keys(second.up.outputs)).toEqual(Object.keys(first.up.outputs));
  }, 300_000);

  it("prints outputs for a person, hiding secret values", () => {
    expect(
      formatOutputs({
        accountId: { value: "acct-demo", secret: false },
        apiKey: { value: "demo-key", secret: true },
      }),
    ).toMatchInlineSnapshot(`
      "  accountId: "acct-demo"
        apiKey: [secret]"
    `);
  });
});
