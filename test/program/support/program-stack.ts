import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PutStatus } from "../../../src/emulator";
import { configKey, SETTINGS } from "../../../src/settings";
import { repoRoot } from "../../engine/support/checkout";
import { type EmulatorSandbox, startEmulatorSandbox } from "../../engine/support/emulator-sandbox";
import { demoStack } from "../../support/demo-stack";
import { MockEngine } from "./mock-engine";
import { setProjectDirectory } from "./project-directory";

/**
 * The program's logic is under test, not the rate budget (test/api/rate-budget.test.ts): a
 * file's runs share one budget per emulator, so the default 600 a minute would pace them.
 */
export const UNTHROTTLED = { [configKey("rateLimit")]: String(SETTINGS.rateLimit.max) };

/** One demo stack driven by the mock engine: an emulator, a project with the demo definitions. */
export interface ProgramStack {
  sandbox: EmulatorSandbox;
  project: string;
  engine: MockEngine;
  stack: ReturnType<typeof demoStack>;
  close(): Promise<void>;
}

export async function startProgramStack(name: string, putStatus: PutStatus): Promise<ProgramStack> {
  const sandbox = await startEmulatorSandbox(name, "demo", { putStatus });
  const project = mkdtempSync(join(tmpdir(), `incident-sync-${name}-`));
  cpSync(join(repoRoot, "incidents"), join(project, "incidents"), { recursive: true });
  writeFileSync(join(project, "Pulumi.yaml"), "name: incident-sync\nruntime: nodejs\n");
  setProjectDirectory(project);
  const engine = new MockEngine({
    [configKey("baseUrl")]: sandbox.emulator.url,
    [configKey("accountId")]: sandbox.emulator.demo.accountId,
    [configKey("apiKey")]: sandbox.emulator.demo.apiKey,
    [configKey("retries")]: "8",
    ...UNTHROTTLED,
  });
  return {
    sandbox,
    project,
    engine,
    stack: demoStack(sandbox, () => project),
    async close() {
      await sandbox.close();
      rmSync(project, { recursive: true, force: true });
    },
  };
}
