import { resolve } from "node:path";
import type { OutputMap } from "@pulumi/pulumi/automation";
import {
  belongsToStack,
  type DefinitionProblem,
  type LoadedDefinition,
  loadDefinitions,
} from "../definitions";
import { API_KEY_SETTING, configKey, readStackSetting } from "../settings";
import { markPreviewRefusals } from "./preview-refusals";
import {
  type ConfigEntry,
  openProjectStack,
  type ProjectStackOptions,
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
}

export type OperationOutcome =
  | {
      kind: "invalid-definitions";
      /** The operation that was asked for and not run. */
      operation: OperationOptions["operation"];
      /** The definitions directory, absolute. */
      dir: string;
      problems: DefinitionProblem[];
    }
  | {
      kind: "ran";
      stackName: string;
      result: StackRunResult;
      /** After an `up`: the stack outputs. */
      outputs: OutputMap | undefined;
      definitions: LoadedDefinition[];
    };

/**
 * One `up`, `preview` or `refresh` of the project's stack, as `incident-sync up` and `npm start`
 * run it: the definitions of the stack's `definitionsDir` are validated first (their problems
 * are reported as `validate` does, and the operation is not run), then the operation runs on
 * the real Pulumi CLI.
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
    if (loaded.problems.length > 0) {
      return {
        kind: "invalid-definitions",
        operation: options.operation,
        dir,
        problems: loaded.problems,
      };
    }
    // Every definition is checked; the stack declares those of its own (`stacks`), as the
    // program chooses them, and only those are claimed and reported.
    const declared = loaded.definitions.filter(({ definition }) =>
      belongsToStack(definition, options.stackName),
    );
    const result =
      options.operation === "up"
        ? await stack.up({
            message: "incident-sync up",
            continueOnError: options.continueOnError ?? true,
            claim: declared.map(({ definition }) => definition.resource),
          })
        : options.operation === "preview"
          ? await stack.preview({
              refresh: options.refresh === true,
              expectNoChanges: options.expectNoChanges === true,
            })
          : await stack.refresh({ expectNoChanges: options.expectNoChanges === true });
    // What `up` would refuse, the preview says, and fails.
    if (options.operation === "preview" && markPreviewRefusals(result.incidents).length > 0) {
      result.ok = false;
    }
    const outputs =
      options.operation === "up" ? await stack.outputs().catch(() => undefined) : undefined;
    return { kind: "ran", stackName: stack.name, result, outputs, definitions: declared };
  } finally {
    stack.close();
  }
}
