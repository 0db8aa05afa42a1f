import {
  describeBackend,
  isSelfManagedBackend,
  selfManagedNameProblem,
} from "../definitions/backend";
import { EngineCli } from "./engine-cli";
import { EngineError } from "./errors";
import { OpenedStack } from "./opened-stack";
import type { ProjectStack, ProjectStackOptions } from "./project-stack-types";
import {
  recoverSandboxSalt,
  sandboxStackFile,
  selectedStack,
  selectStack,
  writeConfigFile,
} from "./stack-opening";

export type {
  CancelResult,
  ConfigEntry,
  ProjectStack,
  ProjectStackOptions,
  StackListing,
} from "./project-stack-types";
export type { StackExport, StackOperation, StackRunResult, UpOptions } from "./stack-run";

/**
 * Opens (creating when needed) a stack of the project on the real Pulumi CLI, as `pulumi up`
 * runs it; each operation first clears stale locks and drops a killed run's pending operations.
 */
export async function openProjectStack(options: ProjectStackOptions): Promise<ProjectStack> {
  // Said in our words before Pulumi refuses it in its own ("organization name must be …").
  const refused =
    options.stackName !== undefined && isSelfManagedBackend(options.backendUrl)
      ? selfManagedNameProblem(options.stackName, describeBackend(options.backendUrl))
      : undefined;
  if (refused !== undefined) throw new EngineError(`Stack ${refused}`);
  const cli = await EngineCli.start(options);
  const stackName = options.stackName ?? (await selectedStack(cli, options.backendUrl));
  cli.lockStack = stackName;
  await selectStack(cli, stackName, options);
  const sandboxFile = sandboxStackFile(options, stackName);
  if (sandboxFile !== undefined) await recoverSandboxSalt(cli, stackName, sandboxFile);
  const configFile = await writeConfigFile(cli, stackName, options, sandboxFile);
  return new OpenedStack(cli, stackName, configFile, options);
}
