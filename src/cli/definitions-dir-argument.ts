import { Argument } from "commander";
import { SETTINGS } from "../settings/catalog";

/**
 * The `[dir]` argument of the commands that read the definitions, defaulting to the stack
 * setting's own default (`incidents`), so a command and the program read the same directory.
 */
export function definitionsDirArgument(
  description = "directory holding the definitions (searched recursively)",
): Argument {
  return new Argument("[dir]", description).default(SETTINGS.definitionsDir.default);
}
