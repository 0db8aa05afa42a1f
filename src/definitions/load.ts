import { readdir, readFile as readFileFromDisk, stat } from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { findDuplicates } from "./duplicates";
import { type LoadedDefinition, parseDefinitionFile, type SourceFile } from "./parse-file";
import { compareProblems, compareText, type DefinitionProblem } from "./problem";

/** The outcome of loading definitions: every valid definition and every problem found. */
export interface LoadResult {
  /** Definitions that passed validation on their own, in file and document order. */
  readonly definitions: LoadedDefinition[];
  /** Every problem in every file, sorted by file, line and column. Empty when valid. */
  readonly problems: DefinitionProblem[];
  /** The definition files that were read, sorted. */
  readonly files: string[];
}

export interface LoadDefinitionsOptions {
  /**
   * Reads one file as UTF-8 text.
   * @default fs.promises.readFile
   */
  readonly readFile?: (file: string) => Promise<string>;
}

/** How many files are read at once: enough to keep the disk busy, few enough for any fd limit. */
const READ_CONCURRENCY = 64;

/**
 * Whether a path is a definitions file: `.yaml` or `.yml`, not hidden, in no hidden
 * folder. Other files (README.md, notes) may live beside definitions.
 */
export function isDefinitionFile(relativePath: string): boolean {
  const segments = relativePath.split(/[\\/]/);
  if (segments.some((segment) => segment.startsWith("."))) return false;
  return /\.ya?ml$/i.test(relativePath);
}

/**
 * Loads every definition under `dir`, including sub-folders. A missing or empty
 * directory is a problem, as is anything wrong in any file; nothing stops at the first.
 *
 * @example
 * const { definitions, problems } = await loadDefinitions("incidents");
 */
export async function loadDefinitions(
  dir: string,
  options: LoadDefinitionsOptions = {},
): Promise<LoadResult> {
  const shown = path.normalize(dir);
  const listed = await listDefinitionFiles(dir);
  if ("problem" in listed) return { definitions: [], problems: [listed.problem], files: [] };
  if (listed.files.length === 0) {
    return {
      definitions: [],
      files: [],
      problems: [
        {
          file: shown,
          code: "empty-directory",
          message: `the directory ${shown} holds no .yaml or .yml files; add an incident definition or point to the right directory`,
        },
      ],
    };
  }

  const readFile = options.readFile ?? ((file: string) => readFileFromDisk(file, "utf8"));
  const limit = pLimit(READ_CONCURRENCY);
  const unreadable: DefinitionProblem[] = [];
  const sources = await Promise.all(
    listed.files.map((relative) =>
      limit(async (): Promise<SourceFile | undefined> => {
        const file = path.join(shown, relative);
        try {
          return { path: file, text: await readFile(file) };
        } catch (error) {
          unreadable.push({
            file,
            line: 1,
            column: 1,
            code: "unreadable-file",
            message: `the file could not be read: ${error instanceof Error ? error.message : String(error)}`,
          });
          return undefined;
        }
      }),
    ),
  );
  const result = loadDefinitionSources(sources.filter((source) => source !== undefined));
  return {
    definitions: result.definitions,
    files: listed.files.map((relative) => path.join(shown, relative)),
    problems: [...result.problems, ...unreadable].sort(compareProblems),
  };
}

/**
 * Loads definitions from files already in memory, such as the files of a git commit.
 * No directory problems apply: an empty list simply yields no definitions.
 */
export function loadDefinitionSources(files: readonly SourceFile[]): LoadResult {
  const ordered = [...files].sort((a, b) => compareText(a.path, b.path));
  const definitions: LoadedDefinition[] = [];
  const problems: DefinitionProblem[] = [];
  for (const file of ordered) {
    const parsed = parseDefinitionFile(file);
    definitions.push(...parsed.definitions);
    problems.push(...parsed.problems);
  }
  problems.push(...findDuplicates(definitions));
  return {
    definitions,
    problems: problems.sort(compareProblems),
    files: ordered.map((file) => file.path),
  };
}

type Listing = { files: string[] } | { problem: DefinitionProblem };

async function listDefinitionFiles(dir: string): Promise<Listing> {
  const shown = path.normalize(dir);
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      return {
        problem: {
          file: shown,
          code: "not-a-directory",
          message: `${shown} is a file, not a directory; pass the directory that holds the definitions`,
        },
      };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return {
        problem: {
          file: shown,
          code: "missing-directory",
          message: `the directory ${shown} does not exist; create it with incident definitions or pass the right directory`,
        },
      };
    }
    throw error;
  }
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter(isDefinitionFile)
    .sort(compareText);
  return { files };
}
