import { UserError } from "../user-error";
import { type DefinitionProblem, formatProblem } from "./problem";

/**
 * The definitions a command needs are not valid. Carries every problem, so the failure can
 * list them in the format the caller reads (annotations, JSON, a Markdown list).
 */
export class InvalidDefinitionsError extends UserError {
  override name = "InvalidDefinitionsError";

  /**
   * @param dir the directory as the reader named it
   * @param problems with `file` as the reader should see it (relative to the working directory)
   */
  constructor(
    readonly dir: string,
    readonly problems: readonly DefinitionProblem[],
  ) {
    super(
      `the definitions in ${dir} are not valid (${problems.length === 1 ? "1 problem" : `${problems.length} problems`}); fix them first:`,
    );
  }

  /** Every problem, one line each as `validate` prints them, indented under the message. */
  get listing(): string {
    return `${this.message}\n${this.problems.map((problem) => `  ${formatProblem(problem)}`).join("\n")}`;
  }
}
