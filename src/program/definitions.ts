import { relative } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import {
  belongsToStack,
  InvalidDefinitionsError,
  type LoadedDefinition,
  loadDefinitions,
  type StackRef,
  unappliedMaintenance,
} from "../definitions";
import { runningStack } from "./running-stack";

/**
 * The definitions of `stack` from the directory, or the run fails with every problem listed
 * as `validate` prints them, whichever stack it is for.
 */
export async function loadProgramDefinitions(
  dir: string,
  projectDir: string = process.cwd(),
  stack: string | StackRef = runningStack(),
): Promise<LoadedDefinition[]> {
  const loaded = await loadDefinitions(dir);
  const { definitions } = loaded;
  const problems = [...loaded.problems, ...unappliedMaintenance(loaded.maintenance)];
  if (problems.length > 0) {
    const shown = (file: string) => relative(projectDir, file) || file;
    const invalid = new InvalidDefinitionsError(
      shown(dir),
      problems.map((problem) => ({ ...problem, file: shown(problem.file) })),
    );
    // A RunError: the engine prints the message alone, without a stack trace.
    throw new pulumi.RunError(invalid.listing);
  }
  return definitions.filter((loaded) => belongsToStack(loaded.definition, stack));
}
