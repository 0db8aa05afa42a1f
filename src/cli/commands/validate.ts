import { Command } from "commander";
import {
  type DefinitionProblem,
  formatLocation,
  type LoadResult,
  loadDefinitions,
} from "../../definitions";
import { ExitCode } from "../exit-codes";
import { type CommandResult, emit, formatOption, jsonOutput, plural } from "../format";
import { githubAnnotation } from "../github-annotations";

export const VALIDATE_FORMATS = ["text", "json", "github"] as const;
export type ValidateFormat = (typeof VALIDATE_FORMATS)[number];

export interface ValidateOptions {
  /** The definitions directory. */
  readonly dir: string;
  readonly format: ValidateFormat;
}

/** Validates every definition under `dir`: exit 0 when all are valid, 1 otherwise. */
export async function runValidate(options: ValidateOptions): Promise<CommandResult> {
  const result = await loadDefinitions(options.dir);
  const exitCode = result.problems.length === 0 ? ExitCode.Ok : ExitCode.Failure;
  switch (options.format) {
    case "json":
      return { exitCode, output: jsonOutput(validateJson(options.dir, result)) };
    case "github":
      return { exitCode, output: githubText(options.dir, result) };
    default:
      return { exitCode, output: plainText(options.dir, result) };
  }
}

/** The JSON shape of `validate --format json`. */
export function validateJson(dir: string, result: LoadResult) {
  return {
    valid: result.problems.length === 0,
    dir,
    files: result.files.length,
    definitions: result.definitions.map((loaded) => ({
      resource: loaded.definition.resource,
      id: loaded.definition.id,
      file: loaded.file,
      line: loaded.at.line,
      column: loaded.at.column,
    })),
    problems: result.problems,
  };
}

function plainText(dir: string, result: LoadResult): string {
  if (result.problems.length === 0) return `${summary(dir, result)}\n`;
  const lines = result.problems.map(
    (problem) => `${formatLocation(problem)}: ${problem.message} [${problem.code}]`,
  );
  lines.push("", `${problemsSummary(result.problems)}.`);
  return `${lines.join("\n")}\n`;
}

function githubText(dir: string, result: LoadResult): string {
  if (result.problems.length === 0) return `${summary(dir, result)}\n`;
  const lines = result.problems.map((problem) =>
    githubAnnotation({
      level: "error",
      file: problem.file,
      line: problem.line,
      column: problem.column,
      title: `incident-sync: ${problem.code}`,
      message: problem.message,
    }),
  );
  lines.push(`${problemsSummary(result.problems)}.`);
  return `${lines.join("\n")}\n`;
}

function summary(dir: string, result: LoadResult): string {
  return `${dir}: ${plural(result.definitions.length, "definition")} in ${plural(result.files.length, "file")}, all valid.`;
}

function problemsSummary(problems: readonly DefinitionProblem[]): string {
  const files = new Set(
    problems.filter((problem) => problem.line !== undefined).map((problem) => problem.file),
  ).size;
  const count = plural(problems.length, "problem");
  return files === 0 ? count : `${count} in ${plural(files, "file")}`;
}

export function validateCommand(): Command {
  return new Command("validate")
    .description(
      "Check the incident definitions: YAML syntax, fields and values, unique ids and resource names. Reports every problem with file, line and column.",
    )
    .argument("[dir]", "directory holding the definitions (searched recursively)", "incidents")
    .addOption(
      formatOption(
        VALIDATE_FORMATS,
        "text",
        "text for people, json for tools, github for workflow annotations",
      ),
    )
    .addHelpText(
      "after",
      `
Exit codes:
  0  every definition is valid
  1  at least one problem (or the directory is missing or empty)

Examples:
  $ incident-sync validate
  $ incident-sync validate path/to/incidents --format json
  $ incident-sync validate --format github    # in a GitHub Actions step`,
    )
    .action(async (dir: string, options: { format: ValidateFormat }) => {
      emit(await runValidate({ dir, format: options.format }));
    });
}
