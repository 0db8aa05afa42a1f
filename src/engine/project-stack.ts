import { rmSync } from "node:fs";
import {
  describeBackend,
  isSelfManagedBackend,
  selfManagedNameProblem,
} from "../definitions/backend";
import { cliError, EngineCli } from "./engine-cli";
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

import type { StackExport } from "./stack-run";

export type { StackExport, StackOperation, StackRunResult, UpOptions } from "./stack-run";

/**
 * Opens (creating when needed) a stack of the project on the real Pulumi CLI, as `pulumi up`
 * runs it; each operation first clears stale locks and drops a killed run's pending operations.
 */
export async function openProjectStack(options: ProjectStackOptions): Promise<ProjectStack> {
  refuseStackName(options);
  const cli = await EngineCli.start(options);
  const stackName = options.stackName ?? (await selectedStack(cli, options.backendUrl));
  cli.lockStack = stackName;
  await selectStack(cli, stackName, options);
  const sandboxFile = sandboxStackFile(options, stackName);
  if (sandboxFile !== undefined) await recoverSandboxSalt(cli, stackName, sandboxFile);
  const configFile = await writeConfigFile(cli, stackName, options, sandboxFile);
  return new OpenedStack(cli, stackName, configFile, options);
}

/**
 * The state of an existing stack, as `pulumi stack export` gives it: read without selecting the
 * stack (the project's selected stack stays the user's choice), creating nothing and taking no
 * lock. For the commands that only read a stack (`drift --stack`, `report incident --stack`).
 */
export async function exportProjectStack(
  options: ProjectStackOptions & { stackName: string },
): Promise<StackExport> {
  refuseStackName(options);
  const cli = await EngineCli.start(options);
  try {
    const exported = await cli.run(["stack", "export", "--stack", options.stackName]);
    if (exported.code === 0) return JSON.parse(exported.stdout) as StackExport;
    const where = describeBackend(options.backendUrl);
    if (/no stack named/i.test(`${exported.stderr}\n${exported.stdout}`)) {
      throw new EngineError(`Stack ${options.stackName} does not exist in ${where}.`);
    }
    throw new EngineError(
      `Exporting stack ${options.stackName} from ${where} failed: ${cliError(exported)}`,
    );
  } finally {
    if (options.workDir === undefined) rmSync(cli.workDir, { recursive: true, force: true });
  }
}

/** A stack name the backend would refuse, said in our words before Pulumi says it in its own. */
function refuseStackName(options: ProjectStackOptions): void {
  const refused =
    options.stackName !== undefined && isSelfManagedBackend(options.backendUrl)
      ? selfManagedNameProblem(options.stackName, describeBackend(options.backendUrl))
      : undefined;
  if (refused !== undefined) throw new EngineError(`Stack ${refused}`);
}
