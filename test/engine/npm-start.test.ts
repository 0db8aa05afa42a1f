import { mkdtempSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveEngine } from "../../src/engine";
import { docBlocksOf } from "../support/doc-blocks";
import { copyCheckout, repoRoot, reuseBuild } from "./support/checkout";
import { sh } from "./support/shell";

const timeout = 300_000;

/**
 * The README's first command, `npm start`, run as written in a copy of this checkout on a warm
 * machine (the packages installed, the engine built): it installs nothing, finds the engine,
 * builds, starts the emulator with the demo seed and runs `up` on the dev stack.
 */
describe("npm start, as the README gives it", () => {
  let root: string;
  let project: string;

  beforeAll(async () => {
    await resolveEngine();
    root = mkdtempSync(join(tmpdir(), "incident-sync-npm-start-"));
    project = copyCheckout(join(root, "project"));
    reuseBuild(project);
    // Warm: the packages (this checkout's, linked) were installed from the copy's lock file,
    // which a copy dates now; dated before them, npm start runs no `npm ci` (which would
    // replace the link to node_modules).
    const installed = statSync(join(repoRoot, "node_modules", ".package-lock.json")).mtime;
    const before = new Date(installed.getTime() - 1_000);
    utimesSync(join(project, "package-lock.json"), before, before);
  }, timeout);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    "installs nothing, builds, and applies the demo definitions to the embedded emulator's dev stack",
    async () => {
      const [line] = docBlocksOf("first-commands")[0]?.commands ?? [];
      expect(line).toBe("npm start");
      const run = await sh(line ?? "", project, {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...(process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {}),
        ...(process.env.INCIDENT_SYNC_PULUMI_BIN
          ? { INCIDENT_SYNC_PULUMI_BIN: process.env.INCIDENT_SYNC_PULUMI_BIN }
          : {}),
      });
      expect(run.code, run.output).toBe(0);
      expect(run.output).not.toContain("Installing dependencies");
      const steps = run.output.split("\n").filter((text) => text.startsWith("» "));
      expect(steps).toEqual(["» Ensuring the Pulumi engine", "» Building (npm run build)"]);
      expect(run.output).toMatch(/^Emulator \(demo seed\) listening on http:\/\/127\.0\.0\.1:\d+/m);
      expect(run.output).toMatch(/^Stack dev: changes applied \(4 adopted, 1 opened; [\d.]+ s\)$/m);
      // The sandbox's state is the copy's, under .incident-sync/, as the README says.
      expect(statSync(join(project, ".incident-sync", "engine")).isDirectory()).toBe(true);
    },
    timeout,
  );
});
