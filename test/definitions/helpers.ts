import {
  type DefinitionProblem,
  formatLocation,
  isCatalogFile,
  type LoadResult,
  loadDefinitionSources,
} from "../../src/definitions";

/** A valid definition as YAML text, with fields that can be overridden line by line. */
export function definitionYaml(fields: Record<string, string> = {}): string {
  const base: Record<string, string> = {
    id: "inc-api-errors",
    name: "Elevated error rates on the Public API",
    severity: "MAJOR",
    status: "IDENTIFIED",
    services: "\n  - id: svc-api\n    name: Public API",
    ...fields,
  };
  return `${Object.entries(base)
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}:${value.startsWith("\n") ? "" : " "}${value}`)
    .join("\n")}\n`;
}

/** Problems as people read them in the terminal, one per line. */
export function problemLines(problems: readonly DefinitionProblem[]): string {
  return problems
    .map((problem) => `${formatLocation(problem)} ${problem.code}: ${problem.message}`)
    .join("\n");
}

/**
 * Loads files held in memory as if they were the directory `incidents/`: as the directory
 * loader does, `incidents/services.yaml` (or `.yml`) is the services catalog, and a
 * `services.yaml` anywhere else is a definitions file.
 */
export function load(files: Record<string, string>): LoadResult {
  return loadDefinitionSources(
    Object.entries(files).map(([file, text]) => ({
      path: file,
      text,
      catalog: file.startsWith("incidents/") && isCatalogFile(file.slice("incidents/".length)),
    })),
  );
}
