import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { bareStackName } from "../definitions/stack-name";
import type { RunningEmulator } from "../emulator";
import { packageRoot } from "../package-root";
import { OPTIONAL_PACKAGES, requirePackages } from "../peer-packages";
import { resolveEngine } from "./resolve-engine";
import { type OperationOptions, type OperationOutcome, runOperation } from "./run-operation";
import { seedSandbox } from "./sandbox-seed";

/**
 * The local demo backend's passphrase: no secret, it only keeps the emulator's demo key
 * encrypted on this machine. Its salt is in the sandbox's own stack file, never the project.
 */
export const LOCAL_DEMO_PASSPHRASE = "incident-sync-local-demo";

/** The stack `up --emulator` runs when none is named. */
export const EMULATOR_STACK = "dev";

export interface MainJobOptions
  extends Partial<
    Pick<
      OperationOptions,
      | "operation"
      | "settings"
      | "refresh"
      | "expectNoChanges"
      | "continueOnError"
      | "signal"
      | "onOutput"
      | "log"
      | "engine"
      | "color"
      | "deadline"
      | "graceMs"
    >
  > {
  /**
   * Directory the job owns: the emulator's data file, the engine's backend and PULUMI_HOME.
   * @default ".incident-sync" in the project
   */
  stateDir?: string;
  /** @default EMULATOR_STACK */
  stackName?: string;
  /** The project directory. @default this repository */
  projectDir?: string;
}

export interface MainJobResult {
  emulatorUrl: string;
  outcome: OperationOutcome;
}

/**
 * Where the main job keeps the engine's backend, home and the sandbox stacks' own stack files
 * under its state directory: nothing of it in the project, so it never meets a team's stacks.
 */
export function mainJobState(stateDir: string) {
  return {
    backendUrl: `file://${join(stateDir, "engine", "backend")}`,
    pulumiHome: join(stateDir, "engine", "home"),
    workDir: join(stateDir, "engine", "run"),
    sandboxStackDir: join(stateDir, "engine", "stacks"),
  };
}

/**
 * `npm start` and `up --emulator`: the emulator with the demo seed, the catalog's services and
 * the incidents the definitions adopt (`seedSandbox`), its data beside the state, then `up`
 * against it as against the API.
 */
export async function runMainJob(options: MainJobOptions = {}): Promise<MainJobResult> {
  requirePackages("The emulator", OPTIONAL_PACKAGES.emulator);
  // The engine first: without one there is nothing to run, so nothing is started or written.
  const engine = options.engine ?? (await resolveEngine());
  const projectDir = options.projectDir ?? packageRoot();
  const stateDir = resolve(projectDir, options.stateDir ?? ".incident-sync");
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  mkdirSync(stateDir, { recursive: true });
  const emulator = await startDevEmulator(stateDir);
  log(
    `Emulator (demo seed) listening on ${emulator.url}, data in ${join(stateDir, "emulator.db")}`,
  );
  try {
    const { stateDir: _stateDir, stackName, projectDir: _projectDir, ...operation } = options;
    const standsFor = stackName ?? EMULATOR_STACK;
    const outcome = await runOperation({
      ...operation,
      engine,
      operation: options.operation ?? "up",
      projectDir,
      // The sandbox's backend is self-managed: its stack is the bare name, and stands for the
      // stack named, whatever its organization (a Pulumi Cloud one such as acme/prod).
      stackName: bareStackName(standsFor),
      sandboxOf: standsFor,
      ...mainJobState(stateDir),
      passphrase: LOCAL_DEMO_PASSPHRASE,
      connection: {
        baseUrl: emulator.url,
        accountId: emulator.demo.accountId,
        apiKey: emulator.demo.apiKey,
      },
      log,
      prepare: async (declared, dir) => {
        const seeded = await seedSandbox(emulator, declared, projectDir, dir);
        for (const note of seeded.notes) log(note);
        return { problems: seeded.problems, against: "the emulator's sandbox" };
      },
    });
    return { emulatorUrl: emulator.url, outcome };
  } finally {
    await emulator.close();
  }
}

/** Loads the emulator only here: its packages are optional in an installed incident-sync. */
async function startDevEmulator(stateDir: string): Promise<RunningEmulator> {
  const { startEmulator } = await import("../emulator/index.js");
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
