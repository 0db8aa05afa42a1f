import * as pulumi from "@pulumi/pulumi";
import { type ClaimPhase, claimPhaseOf } from "../incident";
import {
  API_KEY_SETTING,
  checkSettingKeys,
  definitionsDirectory,
  readStackSettings,
  StackConfigError,
  type StackSettings,
} from "../settings";

/** The stack config of incident-sync (namespace `incident-sync`), read once per run. */
export interface ProgramConfig {
  settings: StackSettings;
  /** Secret: only ever used inside `apply`. */
  apiKey: pulumi.Output<string>;
  /** The project directory, where Pulumi.yaml is. */
  projectDir: string;
  /** Absolute path of the definitions directory. */
  definitionsDir: string;
  /** Set by `incident-sync up` (see `src/incident/claim.ts`); unset under the plain CLI. */
  phase: ClaimPhase | undefined;
}

/**
 * The project directory: where Pulumi.yaml is. The language host runs the program with the
 * directory of `main` (dist/) as its working directory, so the engine's root directory is
 * the one to trust; the working directory is the fallback for engines that do not send it.
 */
export function projectDirectory(): string {
  return pulumi.runtime.getRootDirectory() || process.cwd();
}

/**
 * Reads and validates the stack config (see `StackSettings`), and resolves `definitionsDir`
 * (default `incidents`) against the project directory.
 */
export function readProgramConfig(projectDir: string = projectDirectory()): ProgramConfig {
  const config = new pulumi.Config("incident-sync");
  const settings = asRunError(() => {
    checkSettingKeys(Object.keys(pulumi.runtime.allConfig()));
    return readStackSettings((name) => config.get(name));
  });
  return {
    settings,
    apiKey: config.requireSecret(API_KEY_SETTING),
    projectDir,
    definitionsDir: definitionsDirectory(settings, projectDir),
    phase: claimPhaseOf(),
  };
}

/** A stack config the user can fix fails the run with its message alone, no stack trace. */
function asRunError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof StackConfigError) throw new pulumi.RunError(error.message);
    throw error;
  }
}
