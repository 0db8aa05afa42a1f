import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { type RunningEmulator, startEmulator } from "../emulator";
import type { EngineLocation } from "./engine-location";
import { type EngineUpResult, openEngineStack } from "./engine-stack";
import { findRepoRoot } from "./repo-root";

/**
 * Passphrase of the local demo backend under `.incident-sync/`. It is not a secret: it only
 * keeps the emulator's demo key encrypted in a state file on this machine. Set
 * PULUMI_CONFIG_PASSPHRASE to use your own.
 */
export const LOCAL_DEMO_PASSPHRASE = "incident-sync-local-demo";

export interface MainJobOptions {
  /**
   * Directory the job owns: the emulator's data file, the engine's backend and workspace.
   * @default ".incident-sync" in the repository
   */
  stateDir?: string;
  /** @default "dev" */
  stackName?: string;
  /** @default PULUMI_CONFIG_PASSPHRASE, else LOCAL_DEMO_PASSPHRASE */
  passphrase?: string;
  /** Progress lines for a person. @default writes to stderr */
  log?: (line: string) => void;
  /** Streams the engine's output. @default writes to stdout when it is a terminal */
  onOutput?: ((text: string) => void) | false;
  repoRoot?: string;
  engine?: EngineLocation;
}

export interface MainJobResult {
  stackName: string;
  emulatorUrl: string;
  up: EngineUpResult;
}

/**
 * The main job: starts the emulator with the demo seed on a loopback port, then runs `up` on
 * the stack against it. The emulator keeps its data in a file beside the Pulumi state, so the
 * state and the API it describes stay consistent from one run to the next, and it reuses its
 * last port when free, so the stack's `baseUrl` does not change between runs.
 */
export async function runMainJob(options: MainJobOptions = {}): Promise<MainJobResult> {
  const repoRoot = options.repoRoot ?? findRepoRoot();
  const stateDir = resolve(repoRoot, options.stateDir ?? ".incident-sync");
  const stackName = options.stackName ?? "dev";
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  mkdirSync(stateDir, { recursive: true });

  const emulator = await startDevEmulator(stateDir);
  log(
    `Emulator (demo seed) listening on ${emulator.url}, data in ${join(stateDir, "emulator.db")}`,
  );
  try {
    const stack = await openEngineStack({
      stackName,
      stateDir: join(stateDir, "engine"),
      passphrase:
        options.passphrase ?? process.env.PULUMI_CONFIG_PASSPHRASE ?? LOCAL_DEMO_PASSPHRASE,
      repoRoot,
      ...(options.engine ? { engine: options.engine } : {}),
      ...(options.onOutput !== undefined ? { onOutput: options.onOutput } : {}),
      config: {
        "incident-sync:baseUrl": { value: emulator.url },
        "incident-sync:accountId": { value: emulator.demo.accountId },
        "incident-sync:apiKey": { value: emulator.demo.apiKey, secret: true },
      },
    });
    log(`Running pulumi up on stack ${stackName} (Pulumi CLI v${stack.engine.version})`);
    const up = await stack.up({ message: "incident-sync main job" });
    return { stackName, emulatorUrl: emulator.url, up };
  } finally {
    await emulator.close();
  }
}

async function startDevEmulator(stateDir: string): Promise<RunningEmulator> {
  const portFile = join(stateDir, "emulator-port");
  const dataFile = join(stateDir, "emulator.db");
  const lastPort = existsSync(portFile) ? Number(readFileSync(portFile, "utf8").trim()) : 0;
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({ port: lastPort || 0, seed: "demo", dataFile });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    emulator = await startEmulator({ port: 0, seed: "demo", dataFile });
  }
  writeFileSync(portFile, `${new URL(emulator.url).port}\n`);
  return emulator;
}

/** Stack outputs as a person reads them: secrets stay hidden. */
export function formatOutputs(outputs: OutputMap): string {
  const lines = Object.entries(outputs).map(([key, output]) => {
    const shown = output.secret ? "[secret]" : JSON.stringify(output.value, null, 2);
    return `  ${key}: ${shown.replace(/\n/g, "\n  ")}`;
  });
  return lines.length > 0 ? lines.join("\n") : "  (none)";
}
