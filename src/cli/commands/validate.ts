import { readFileSync } from "node:fs";
import path from "node:path";
import {
  belongsToStack,
  type DefinitionProblem,
  formatLocation,
  formatProblem,
  isCatalogFile,
  type LoadResult,
  parseStackName,
  projectOf,
  type StackEntryWarning,
  stackFilesOf,
  unknownStackEntries,
} from "../../definitions";
import { githubAnnotation } from "../../github-annotation";
import { plural } from "../../plural";
import { safeLine } from "../../safe-text";
import { ExitCode } from "../exit-codes";
import { jsonOutput } from "../formats";
import type { CommandIo } from "../io";
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
 * stdout in the chosen format.
 */
export async function runValidate(options: ValidateOptions, io: CommandIo): Promise<ExitCode> {
  const dir = new DefinitionsDir(io, options.dir);
  const result = await dir.load();
  const warnings = stackWarnings(dir.absolute, result, options.stack, io);
  io.stdout.write(render(options, result, warnings));
  return result.problems.length === 0 ? ExitCode.Ok : ExitCode.Failure;
}

/**
 * `stacks` entries that name no stack file of the project nor `--stack`; the backend's stacks
 * are for `up`, `preview` and `refresh` to check, as `validate` runs no engine.
 */
function stackWarnings(
  absoluteDir: string,
  result: LoadResult,
  stack: string | undefined,
  io: CommandIo,
): StackEntryWarning[] {
  const project = projectOf(absoluteDir);
  const files = project ? stackFilesOf(project.dir, project.name) : [];
  // One stack named on the command line is no list of the project's stacks: only beside them.
  if (files.length === 0) return [];
  const given = stack === undefined ? [] : [parseStackName(stack)];
  return unknownStackEntries(
    result.definitions,
    {
      stacks: [...files, ...given],
      sources: [
        "the Pulumi.<stack>.yaml files beside Pulumi.yaml",
        ...(stack === undefined ? [] : ["--stack"]),
      ],
    },
    (file) => readFileSync(path.resolve(io.cwd, file), "utf8"),
  );
}

function render(
  options: ValidateOptions,
  result: LoadResult,
  warnings: readonly StackEntryWarning[],
): string {
  switch (options.format) {
    case "json":
      return jsonOutput(validateJson(options, result, warnings));
    case "github":
      return githubText(options, result, warnings);
    case "text":
      return validateText(options.dir, result, options.stack, warnings);
  }
}

/** A warning as one line, `file:line:column: warning: message [code]`. */
function formatWarning(warning: StackEntryWarning): string {
  return safeLine(`${formatLocation(warning)}: warning: ${warning.message} [${warning.code}]`);
}

/** The JSON shape of `validate --format json`. */
function validateJson(
  options: ValidateOptions,
  result: LoadResult,
  warnings: readonly StackEntryWarning[],
) {
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
    warnings,
  };
}

/**
 * One line per problem, always: a line break or terminal control sequence in a file name
 * or a value quoted in a message is shown as an escape (`\n`, `\u001B`).
 */
export function validateText(
  dir: string,
  result: LoadResult,
  stack?: string,
  warnings: readonly StackEntryWarning[] = [],
): string {
  const lines = [...result.problems.map(formatProblem), ...warnings.map(formatWarning)];
  if (lines.length > 0) lines.push("");
  lines.push(
    result.problems.length === 0
      ? safeLine(summary(dir, result, stack))
      : `${problemsSummary(result.problems)}.`,
  );
  return `${lines.join("\n")}\n`;
}

function githubText(
  options: ValidateOptions,
  result: LoadResult,
  warnings: readonly StackEntryWarning[],
): string {
  const annotations = warnings.map((warning) =>
    githubAnnotation({
      level: "warning",
      file: warning.file,
      line: warning.line,
      column: warning.column,
      title: `incident-sync: ${warning.code}`,
      message: warning.message,
    }),
  );
  if (result.problems.length === 0) {
    return [...annotations, safeLine(summary(options.dir, result, options.stack))]
      .map((line) => `${line}\n`)
      .join("");
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
  lines.push(...annotations, `${problemsSummary(result.problems)}.`);
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
