import path from "node:path";
import {
  type DefinitionProblem,
  type LoadedDefinition,
  type LoadResult,
  loadDefinitions,
} from "../../definitions";
import type { CommandIo } from "../io";

/**
 * A definitions directory named on the command line, found from the command's working
 * directory (`io.cwd`) and shown the way the user spelled it: a relative `dir` gives
 * relative file names in every message and output, an absolute one absolute names.
 */
export class DefinitionsDir {
  /** Where the files are. */
  readonly absolute: string;

  constructor(
    io: CommandIo,
    /** As the user typed it, e.g. `incidents`. */
    readonly given: string,
  ) {
    this.absolute = path.resolve(io.cwd, given);
  }

  /** A path under `absolute` as the user would write it. */
  show(file: string): string {
    if (path.isAbsolute(this.given)) return file;
    return path.join(path.normalize(this.given), path.relative(this.absolute, file)) || ".";
  }

  /** A message with every path under `absolute` written as the user would write it. */
  showIn(text: string): string {
    if (path.isAbsolute(this.given)) return text;
    return text.split(this.absolute).join(path.normalize(this.given));
  }

  problem(problem: DefinitionProblem): DefinitionProblem {
    return { ...problem, file: this.show(problem.file), message: this.showIn(problem.message) };
  }

  definition(loaded: LoadedDefinition): LoadedDefinition {
    return { ...loaded, file: this.show(loaded.file) };
  }

  /** Loads every definition under the directory, paths shown as the user spelled them. */
  async load(): Promise<LoadResult> {
    const result = await loadDefinitions(this.absolute);
    return {
      definitions: result.definitions.map((loaded) => this.definition(loaded)),
      maintenance: result.maintenance.map((loaded) => ({
        ...loaded,
        file: this.show(loaded.file),
      })),
      problems: result.problems.map((problem) => this.problem(problem)),
      files: result.files.map((file) => this.show(file)),
    };
  }
}
