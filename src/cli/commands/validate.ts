import { readFileSync } from "node:fs";
import path from "node:path";
import type { ClientOptions } from "../../api";
import {
  belongsToStack,
  compareProblems,
  type DefinitionProblem,
  formatProblem,
  isCatalogFile,
  type LoadResult,
  MAINTENANCE_NOT_APPLIED,
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
  /** Also check the services the definitions list against the account's (`--live`). */
  readonly live?: ClientOptions | undefined;
}

/** What `--live` read: how many services the account has. */
interface LiveCheck {
  readonly services: number;
}

/**
 * Validates every definition under `dir` and writes the result: exit 0 when all are valid,
 * 1 otherwise. Problems are the command's result, not a failure: they are written to
 * stdout in the chosen format. A `stacks` entry that names no stack of the project is one.
 */
export async function runValidate(options: ValidateOptions, io: CommandIo): Promise<ExitCode> {
  const dir = new DefinitionsDir(io, options.dir);
  const { result: loaded, live } = await checkLive(await dir.load(), options.live);
  const { known } = projectStacks(dir.absolute, io.env, options.stack);
  const stackProblems = unknownStackEntries(loaded.definitions, known, (file) =>
    readFileSync(path.resolve(io.cwd, file), "utf8"),
  );
  const result = {
    ...loaded,
    problems: [...loaded.problems, ...stackProblems].sort(compareProblems),
  };
  io.stdout.write(render(options, result, live));
  return result.problems.length === 0 ? ExitCode.Ok : ExitCode.Failure;
}

/**
 * With `--live`, the services the definitions list that the account lacks, as problems beside
 * the loader's; every definition that loaded is checked, whatever the others' problems.
 */
async function checkLive(
  loaded: LoadResult,
  connection: ClientOptions | undefined,
): Promise<{ result: LoadResult; live: LiveCheck | undefined }> {
  if (connection === undefined || loaded.definitions.length === 0) {
    return { result: loaded, live: undefined };
  }
  const { createClient } = await import("../../api/index.js");
  const { liveServiceIds, liveServiceProblems } = await import("./live-services.js");
  const known = await liveServiceIds(createClient(connection));
  const problems = [...loaded.problems, ...liveServiceProblems(loaded.definitions, known)];
  return {
    result: { ...loaded, problems: problems.sort(compareProblems) },
    live: { services: known.size },
  };
}

function render(options: ValidateOptions, result: LoadResult, live: LiveCheck | undefined): string {
  switch (options.format) {
    case "json":
      return jsonOutput(validateJson(options, result, live));
    case "github":
      return githubText(options, result, live);
    case "text":
      return validateText(options.dir, result, options.stack, live);
  }
}

/** The JSON shape of `validate --format json`. */
function validateJson(options: ValidateOptions, result: LoadResult, live: LiveCheck | undefined) {
  const { stack } = options;
  return {
    valid: result.problems.length === 0,
    dir: options.dir,
    ...(stack === undefined ? {} : { stack }),
    ...(live === undefined ? {} : { live }),
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
    maintenance: result.maintenance.map((loaded) => ({
      resource: loaded.definition.resource,
      file: loaded.file,
      line: loaded.at.line,
      column: loaded.at.column,
      applied: false,
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
export function validateText(
  dir: string,
  result: LoadResult,
  stack?: string,
  live?: LiveCheck,
): string {
  const lines = result.problems.map(formatProblem);
  if (lines.length > 0) lines.push("");
  lines.push(
    result.problems.length === 0
      ? summary(dir, result, stack, live)
      : `${problemsSummary(result.problems)}.`,
  );
  return `${lines.join("\n")}\n`;
}

function githubText(
  options: ValidateOptions,
  result: LoadResult,
  live: LiveCheck | undefined,
): string {
  if (result.problems.length === 0) {
    return `${summary(options.dir, result, options.stack, live)}\n`;
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

function summary(
  dir: string,
  result: LoadResult,
  stack: string | undefined,
  live: LiveCheck | undefined,
): string {
  // The services catalog holds no definition: it is named, not counted among their files.
  const catalogs = result.files.filter((file) => isCatalogFile(path.relative(dir, file)));
  const files = plural(result.files.length - catalogs.length, "file");
  const catalog = catalogs.length > 0 ? " and the services catalog" : "";
  const checked =
    live === undefined
      ? ""
      : `, every service they list among the account's ${plural(live.services, "service")}`;
  const windows = result.maintenance.length;
  const counted = `${plural(result.definitions.length, "definition")}${windows > 0 ? ` and ${plural(windows, "maintenance window")}` : ""}`;
  const all = `${dir}: ${counted} in ${files}${catalog}, all valid${checked}`;
  const note = windows > 0 ? `\nNote: ${MAINTENANCE_NOT_APPLIED}.` : "";
  if (stack === undefined) return `${safeLine(all)}.${note}`;
  const declared = result.definitions.filter((loaded) => belongsToStack(loaded.definition, stack));
  return `${safeLine(all)}; stack ${safeLine(stack)} declares ${declared.length} of them.${note}`;
}

function problemsSummary(problems: readonly DefinitionProblem[]): string {
  const files = new Set(
    problems.filter((problem) => problem.line !== undefined).map((problem) => problem.file),
  ).size;
  const count = plural(problems.length, "problem");
  return files === 0 ? count : `${count} in ${plural(files, "file")}`;
}
