import { join } from "node:path";
import {
  type EngineLocation,
  type OperationOptions,
  type OperationOutcome,
  runOperation,
} from "../../../src/engine";
import type { EmulatorSandbox } from "./emulator-sandbox";

/** A stack of the emulator's demo account, run by `incident-sync up`'s engine runner. */
export interface DemoStackRun {
  sandbox: EmulatorSandbox;
  engine: EngineLocation;
  /** The project directory (where Pulumi.yaml is). */
  project: string;
  stackName: string;
}

/**
 * Runs `operation` on the real engine for the demo account: the state and Pulumi's home in
 * the sandbox, a passphrase of the stack's own, and the client retrying up to 8 times as
 * under Pulumi. `extra` goes over these (its `settings` replace them whole).
 */
export function demoOperation(
  { sandbox, engine, project, stackName }: DemoStackRun,
  operation: OperationOptions["operation"],
  extra: Partial<OperationOptions> = {},
): Promise<OperationOutcome> {
  const { root, emulator } = sandbox;
  return runOperation({
    operation,
    projectDir: project,
    stackName,
    backendUrl: `file://${join(root, "backend")}`,
    pulumiHome: join(root, "pulumi-home"),
    passphrase: `${stackName}-passphrase`,
    engine,
    connection: {
      baseUrl: emulator.url,
      accountId: emulator.demo.accountId,
      apiKey: emulator.demo.apiKey,
    },
    settings: { retries: "8" },
    log: () => {},
    ...extra,
  });
}
