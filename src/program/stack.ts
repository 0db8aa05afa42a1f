import * as pulumi from "@pulumi/pulumi";
import type { Incident } from "../../providers/incident";
import {
  belongsToStack,
  type IncidentDefinitionInput,
  InvalidDefinitionsError,
  type LoadedDefinition,
  loadDefinitionObjects,
} from "../definitions";
import { programClient } from "./client";
import { readProgramConfig } from "./config";
import { declareIncidents } from "./declare";
import { loadProgramDefinitions } from "./definitions";
import { incidentOutputs } from "./incident-outputs";
import { runningStack } from "./running-stack";

export interface IncidentStackOptions {
  /**
   * Incidents declared in code, checked by the rules a YAML definition is (unknown fields,
   * values, duplicate ids). Unset: the definitions directory of the stack config.
   */
  incidents?: readonly IncidentDefinitionInput[];
  /** Options for every `Incident` resource, e.g. `protect` or a `parent`. */
  resourceOptions?: pulumi.CustomResourceOptions;
}

/** What `declareIncidentStack` declared, and the stack outputs drift and reports read. */
export interface IncidentStack {
  /** The `Incident` resources, by incident id (a new incident's by its resource name). */
  readonly resources: Readonly<Record<string, Incident>>;
  /**
   * The outputs of incident-sync's own program (`StackOutputs`): export them, and `incident-sync
   * up` and `pulumi stack output drift` read them as for a YAML project.
   */
  readonly outputs: Record<string, unknown>;
}

/**
 * The whole incident-sync program in one call: reads the stack config (`incident-sync:*`),
 * takes the incidents given in code or loads the definitions directory, keeps those of this
 * stack, declares one `Incident` each with its observation of the status page, and returns
 * the read-backs and drift as outputs. `index.ts` is this call with no incidents given.
 *
 * @example
 * import { declareIncidentStack } from "incident-sync";
 *
 * export = async () => {
 *   const stack = await declareIncidentStack({
 *     incidents: [
 *       { id: "inc-api", name: "API errors", severity: "MAJOR", status: "INVESTIGATING", services: ["svc-api"] },
 *     ],
 *   });
 *   return stack.outputs;
 * };
 */
export async function declareIncidentStack(
  options: IncidentStackOptions = {},
): Promise<IncidentStack> {
  const config = readProgramConfig();
  const definitions =
    options.incidents === undefined
      ? await loadProgramDefinitions(config.definitionsDir, config.projectDir)
      : definitionsInCode(options.incidents);
  const declareOptions = {
    client: programClient(config),
    settings: config.settings,
    projectDir: config.projectDir,
    phase: config.phase,
    ...(options.resourceOptions ? { resourceOptions: options.resourceOptions } : {}),
  };
  const declared = declareIncidents(definitions, declareOptions);
  return {
    resources: Object.fromEntries(
      declared.map(({ loaded, resource }) => [
        loaded.definition.id ?? loaded.definition.resource,
        resource,
      ]),
    ),
    outputs: {
      accountId: config.settings.accountId,
      ...incidentOutputs(declared, declareOptions),
    },
  };
}

/**
 * The incidents given in code, those of this stack, or a failed run listing every problem as
 * `validate` does (`incidents[2]:3:1: unknown field …`).
 */
function definitionsInCode(incidents: readonly IncidentDefinitionInput[]): LoadedDefinition[] {
  const { definitions, problems } = loadDefinitionObjects(incidents);
  if (problems.length > 0) {
    throw new pulumi.RunError(new InvalidDefinitionsError("the program", problems).listing);
  }
  const stack = runningStack();
  return definitions.filter((loaded) => belongsToStack(loaded.definition, stack));
}
