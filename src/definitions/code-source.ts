import { stringify } from "yaml";
import { type LoadResult, loadDefinitionSources } from "./load";
import type { IncidentDefinitionInput } from "./schema";

/**
 * Definitions written in code, checked by the very rules a YAML file is: each becomes a YAML
 * document of its own, named `<name>[<index>]`, and goes through the same loader, so unknown
 * fields, bad values, duplicate ids and resource names are the same problems with the same
 * codes. A problem's line counts the fields of that one definition, as they were written.
 *
 * @example
 * const { definitions, problems } = loadDefinitionObjects([
 *   { id: "inc-api", name: "API errors", severity: "MAJOR", status: "INVESTIGATING", services: ["svc-api"] },
 * ]);
 */
export function loadDefinitionObjects(
  inputs: readonly IncidentDefinitionInput[],
  name = "incidents",
): LoadResult {
  return loadDefinitionSources(
    inputs.map((input, index) => ({ path: `${name}[${index}]`, text: stringify(input) })),
  );
}
