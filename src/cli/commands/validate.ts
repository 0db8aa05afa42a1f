import { readFileSync } from "node:fs";
import path from "node:path";
import {
  belongsToStack,
  compareProblems,
  type DefinitionProblem,
  formatProblem,
  isCatalogFile,
  type LoadResult,
  unknownStackEntries,
} from "../../definitions";
import { githubAnnotation } from "../../github-annotation";
import { plural } from "../../plural";
import { safeLine } from "../../safe-text";
import { ExitCode } from "../exit-codes";
import { jsonOutput } from "../formats";
import type { CommandIo } from "../io";
import { projectStacks } from "../project-stacks";
import { DefinitionsDir } from "./definitions-dir";
import type { ValidateFormat } from "./validate-options";

export interface ValidateOptions {
  /** The definitions directory, relative to the working directory. */
  readonly dir: string;
  readonly format: ValidateFormat;
  /** Also say which definitions this stack declares (`belongsToStack`). */
  readonly stack?: string | undefined;
}

/**
 * Validates every definition under `dir` and writes the result: exit 0 when all are valid,
 * 1 otherwise. Problems are the command's result, not a failure: they are written to
 * stdout in the chosen format. A `stacks` entry that names no stack of the project is one.
 */
export async function runValidate(options: ValidateOptions, io: CommandIo): Promise<ExitCode> {
  const dir = new DefinitionsDir(io, options.dir);
  const loaded = await dir.load();
  const { known } = projectStacks(dir.absolute, io.env, options.stack);
  const stackProblems = unknownStackEntries(loaded.definitions, known, (file) =>
    readFileSync(path.resolve(io.cwd, file), "utf8"),
  );
  const result = {
    ...loaded,
    problems: [...loaded.problems, ...stackProblems].sort(compareProblems),
  };
  io.stdout.write(render(options, result));
  return result.problems.length === 0 ? ExitCode.Ok : ExitCode.Failure;
}

function render(options: ValidateOptions, result: LoadResult): string {
  switch (options.format) {
    case "json":
      return jsonOutput(validateJson(options, result));
    case "github":
      return githubText(options, result);
    case "text":
      return validateText(options.dir, result, options.stack);
  }
}

/** The JSON shape of `validate --format json`. */
function validateJson(options: ValidateOptions, result: LoadResult) {
  const { stack } = options;
  return {
    valid: result.problems.length === 0,
    dir: options.dir,
    ...(stack === undefined ? {} : { stack }),
    files: result.files.length,
    definitions: result.definitions.map((loaded) => ({
      resource: loaded.definition.resource,
      id: loaded.definition.id,
      file: loaded.file,
      line: loaded.at.line,
      column: loaded.at.column,
      ...(loaded.definition.stacks === undefined ? {} : { stacks: loaded.definition.stacks }),
      ...(stack === undefined ? {} : { inStack: belongsToStack(loaded.definition, stack) }),
    })),
    problems: result.problems,
    // Kept for the tools that read it: a stacks entry that names no stack is a problem now.
    warnings: [],
  };
}

/**
 * One line per problem, always: a line break or terminal control sequence in a file name
 * or a value quoted in a message is shown as an escape (`\n`, `\u001B`).
 */
export function validateText(dir: string, result: LoadResult, stack?: string): string {
  const lines = result.problems.map(formatProblem);
  if (lines.length > 0) lines.push("");
  lines.push(
    result.problems.length === 0
      ? safeLine(summary(dir, result, stack))
      : `${problemsSummary(result.problems)}.`,
  );
  return `${lines.join("\n")}\n`;
}

function githubText(options: ValidateOptions, result: LoadResult): string {
  if (result.problems.length === 0) {
    return `${safeLine(summary(options.dir, result, options.stack))}\n`;
  }
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

function summary(dir: string, result: LoadResult, stack: string | undefined): string {
  // The services catalog holds no definition: it is named, not counted among their files.
  const catalogs = result.files.filter((file) => isCatalogFile(path.relative(dir, file)));
  const files = plural(result.files.length - catalogs.length, "file");
  const catalog = catalogs.length > 0 ? " and the services catalog" : "";
  const all = `${dir}: ${plural(result.definitions.length, "definition")} in ${files}${catalog}, all valid`;
  if (stack === undefined) return `${all}.`;
  const declared = result.definitions.filter((loaded) => belongsToStack(loaded.definition, stack));
  return `${all}; stack ${stack} declares ${declared.length} of them.`;
}

function problemsSummary(problems: readonly DefinitionProblem[]): string {
  const files = new Set(
    problems.filter((problem) => problem.line !== undefined).map((problem) => problem.file),
  ).size;
  const count = plural(problems.length, "problem");
  return files === 0 ? count : `${count} in ${plural(files, "file")}`;
}
