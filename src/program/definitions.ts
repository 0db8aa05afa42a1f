import { formatLocation, type LoadedDefinition, loadDefinitions } from "../definitions";

/** The definitions directory holds problems; the message lists each with file:line:column. */
export class InvalidDefinitionsError extends Error {
  override name = "InvalidDefinitionsError";
}

/**
 * Loads every definition of the directory, or throws `InvalidDefinitionsError` with the
 * loader's messages, so an invalid definition fails the preview before anything is applied.
 */
export async function loadProgramDefinitions(dir: string): Promise<LoadedDefinition[]> {
  const { definitions, problems } = await loadDefinitions(dir);
  if (problems.length > 0) {
    const lines = problems.map((problem) => `  ${formatLocation(problem)}: ${problem.message}`);
    throw new InvalidDefinitionsError(
      `The incident definitions in ${dir} have ${problems.length === 1 ? "a problem" : `${problems.length} problems`}; fix ${problems.length === 1 ? "it" : "them"} and run again:\n${lines.join("\n")}`,
    );
  }
  return definitions;
}
