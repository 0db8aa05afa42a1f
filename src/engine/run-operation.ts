import { resolve } from "node:path";
import type { OutputMap } from "@pulumi/pulumi/automation";
import {
  backendStacks,
  belongsToStack,
  type DefinitionProblem,
  describeBackend,
  isSelfManagedBackend,
  type LoadedDefinition,
  loadDefinitions,
  SELF_MANAGED_ORGANIZATION,
  stackFilesOf,
  standInStack,
  unappliedMaintenance,
  unknownStackEntries,
} from "../definitions";
import { API_KEY_SETTING, configKey, type OnPageChange, readStackSetting } from "../settings";
import type { IncidentStep } from "./engine-events";
import { markPageChanges, markPreviewRefusals } from "./preview-refusals";
import {
  type ConfigEntry,
  openProjectStack,
  type ProjectStackOptions,
  type StackListing,
  type StackRunResult,
} from "./project-stack";

/** Where and as whom the program talks to the monitoring API, for one run. */
export interface ProgramConnection {
  baseUrl: string;
  accountId: string;
  apiKey: string;
}

export interface OperationOptions extends Omit<ProjectStackOptions, "config"> {
  operation: "up" | "preview" | "refresh";
  /** The API to apply to; unset: the stack config's `incident-sync:baseUrl`, `accountId`, `apiKey`. */
  connection?: ProgramConnection;
  /** More stack config for this run, by setting name, e.g. `{ enforce: "always" }`. */
  settings?: Record<string, string>;
  /** preview, refresh: fail when something would change. */
  expectNoChanges?: boolean;
  /** preview: refresh the state first, so changes made on the status page show. */
  refresh?: boolean;
  /** up: apply the other incidents when one fails (the engine's --continue-on-error). @default true */
  continueOnError?: boolean;
  /**
   * Runs once the definitions are valid, before the engine, with those the stack declares and
   * the definitions directory: how the emulator's sandbox takes a team's services and incidents
   * (`up --emulator`). The problems it answers (a service the sandbox lacks) stop the run.
   */
  prepare?: (
    declared: readonly LoadedDefinition[],
    dir: string,
  ) => Promise<{ problems: readonly DefinitionProblem[]; against: string } | undefined>;
}

export type OperationOutcome =
  | {
      kind: "invalid-definitions";
      /** The operation that was asked for and not run. */
      operation: OperationOptions["operation"];
      /** The definitions directory, absolute. */
      dir: string;
      problems: DefinitionProblem[];
      /** What found them, when not the loader: "the emulator's sandbox". */
      against?: string;
    }
  | {
      kind: "ran";
      stackName: string;
      /** A sandbox's run (`up --emulator`), not a stack of the team's. */
      sandbox?: boolean;
      result: StackRunResult;
      /** After an `up`: the stack outputs. */
      outputs: OutputMap | undefined;
      definitions: LoadedDefinition[];
      /** The stack's `onPageChange`: under `refuse`, a change on the status page fails (exit 3). */
      onPageChange?: OnPageChange;
    };

/**
 * One `up`, `preview` or `refresh`, as `incident-sync up` runs it: the definitions of the
 * stack's `definitionsDir` validated first (their problems stop it), then the real CLI.
 */
export async function runOperation(options: OperationOptions): Promise<OperationOutcome> {
  const projectDir = resolve(options.projectDir);
  const config: Record<string, ConfigEntry> = {};
  if (options.connection) {
    config[configKey("baseUrl")] = { value: options.connection.baseUrl };
    config[configKey("accountId")] = { value: options.connection.accountId };
    config[configKey(API_KEY_SETTING)] = { value: options.connection.apiKey, secret: true };
  }
  for (const [name, value] of Object.entries(options.settings ?? {})) {
    config[configKey(name)] = { value };
  }
  const stack = await openProjectStack({
    ...options,
    projectDir,
    // Only up creates a stack: a preview or refresh of a mistyped name says so instead.
    create: options.create ?? options.operation === "up",
    ...(Object.keys(config).length > 0 ? { config } : {}),
  });
  try {
    // The directory the program will load: the same setting, read from the config the engine
    // resolves for this run, through the same schema.
    const stackConfig = await stack.config();
    const dir = resolve(
      projectDir,
      readStackSetting("definitionsDir", (name) => stackConfig[configKey(name)]),
    );
    const loaded = await loadDefinitions(dir);
    const problems = [...loaded.problems, ...unappliedMaintenance(loaded.maintenance)];
    if (problems.length > 0) {
      return { kind: "invalid-definitions", operation: options.operation, dir, problems };
    }
    // Every definition is checked; the stack declares those of its own (`stacks`), as the
    // program chooses them, and only those are claimed and reported.
    // Which stacks there are matters only to definitions that name theirs: asked only then.
    const listing = loaded.definitions.some(({ definition }) => definition.stacks !== undefined)
      ? await stack.listStacks()
      : undefined;
    // A stacks entry that names no stack would take its incident off the stack meant: nothing
    // is released or resolved because of it, as nothing runs.
    const unknown =
      listing === undefined
        ? []
        : unknownStacks(loaded.definitions, projectDir, stack.project, listing, options);
    if (unknown.length > 0) {
      return { kind: "invalid-definitions", operation: options.operation, dir, problems: unknown };
    }
    const running =
      options.sandboxOf === undefined
        ? (listing?.qualifiedName ?? stack.name)
        : standInStack(options.sandboxOf, stack.project);
    const declared = loaded.definitions.filter(({ definition }) =>
      belongsToStack(definition, running),
    );
    const refused = await options.prepare?.(declared, dir);
    if (refused !== undefined && refused.problems.length > 0) {
      return {
        kind: "invalid-definitions",
        operation: options.operation,
        dir,
        problems: [...refused.problems],
        against: refused.against,
      };
    }
    const result =
      options.operation === "up"
        ? await stack.up({
            message: "incident-sync up",
            continueOnError: options.continueOnError ?? true,
            claim: declared.map(({ definition }) => definition.resource),
            aliases: Object.fromEntries(
              declared.map(({ definition }) => [definition.resource, definition.aliases ?? []]),
            ),
          })
        : options.operation === "preview"
          ? await stack.preview({
              refresh: options.refresh === true,
              expectNoChanges: options.expectNoChanges === true,
            })
          : await stack.refresh({ expectNoChanges: options.expectNoChanges === true });
    const onPageChange = readStackSetting("onPageChange", (name) => stackConfig[configKey(name)]);
    if (options.operation !== "refresh") markPageChanges(result.incidents);
    nameSteps(result.incidents, declared);
    // What `up` would refuse, the preview says, and fails.
    if (
      options.operation === "preview" &&
      markPreviewRefusals(result.incidents, onPageChange).length > 0
    ) {
      result.ok = false;
    }
    const outputs =
      options.operation === "up" ? await stack.outputs().catch(() => undefined) : undefined;
    return {
      kind: "ran",
      // A sandbox is reported as the stack it stands for, as it was named.
      stackName: options.sandboxOf ?? stack.name,
      sandbox: options.sandboxStackDir !== undefined,
      result,
      outputs,
      definitions: declared,
      onPageChange,
    };
  } finally {
    stack.close();
  }
}

/**
 * `stacks` entries that name no stack file of the project and no stack of its backend, as
 * problems at their lines. A sandbox's backend (the emulator's) holds none of the team's
 * stacks: there the files count, and the stack the sandbox stands for.
 */
function unknownStacks(
  definitions: readonly LoadedDefinition[],
  projectDir: string,
  project: string,
  listing: StackListing,
  options: Pick<OperationOptions, "sandboxOf" | "backendUrl">,
): DefinitionProblem[] {
  const sandbox = options.sandboxOf !== undefined;
  const selfManaged =
    !sandbox && isSelfManagedBackend(options.backendUrl)
      ? describeBackend(options.backendUrl)
      : undefined;
  const files = stackFilesOf(
    projectDir,
    project,
    selfManaged === undefined ? undefined : SELF_MANAGED_ORGANIZATION,
  );
  const own = options.sandboxOf === undefined ? [] : [standInStack(options.sandboxOf, project)];
  return unknownStackEntries(definitions, {
    stacks: [...files, ...(sandbox ? own : backendStacks(listing.backendStacks))],
    sources: [
      ...(files.length > 0 ? ["the Pulumi.<stack>.yaml files beside Pulumi.yaml"] : []),
      sandbox ? "the stack the sandbox stands for" : "the backend's stacks",
    ],
    selfManaged,
  });
}

/** Each step its definition's name, for the lines that name it when the engine gave no inputs. */
function nameSteps(steps: IncidentStep[], declared: readonly LoadedDefinition[]): void {
  const names = new Map(declared.map(({ definition }) => [definition.resource, definition.name]));
  for (const step of steps) {
    const name = names.get(step.resource);
    if (name !== undefined) step.definedName = name;
  }
}
