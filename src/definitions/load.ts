import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { findDuplicates } from "./duplicates";
import {
  type LoadedDefinition,
  type ParsedFile,
  parseDefinitionFile,
  type SourceFile,
} from "./parse-file";
import { errorText, type ParseJob, parseJobsInParallel } from "./parse-jobs";
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
   * Reads one file as UTF-8 text, e.g. from somewhere other than the local disk.
   * @default synchronous reads spread over parser threads
   */
  readonly readFile?: (file: string) => Promise<string>;
  /**
   * How many threads may parse at most; a thread is only started per 10,000 files.
   * @default os.availableParallelism(), at most 8
   */
  readonly threads?: number;
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

  const files = listed.files.map((relative) => path.join(shown, relative));
  const jobs = options.readFile
    ? await readWith(options.readFile, files)
    : files.map((file) => ({ path: file, readFrom: file }));
  const parsed = await parseJobsInParallel(jobs, options.threads);
  return { ...combine(parsed), files };
}

/** Reads through the caller's reader, a few files at a time; failures become problems. */
async function readWith(
  readFile: (file: string) => Promise<string>,
  files: readonly string[],
): Promise<ParseJob[]> {
  const limit = pLimit(READ_CONCURRENCY);
  return Promise.all(
    files.map((file) =>
      limit(async (): Promise<ParseJob> => {
        try {
          return { path: file, text: await readFile(file) };
        } catch (error) {
          return { path: file, readError: errorText(error) };
        }
      }),
    ),
  );
}

/**
 * Loads definitions from files already in memory, such as the files of a git commit.
 * No directory problems apply: an empty list simply yields no definitions.
 */
export function loadDefinitionSources(files: readonly SourceFile[]): LoadResult {
  const ordered = [...files].sort((a, b) => compareText(a.path, b.path));
  return { ...combine(ordered.map(parseDefinitionFile)), files: ordered.map((file) => file.path) };
}

/** Joins per-file results and adds the problems that span files (duplicates). */
function combine(parsed: readonly ParsedFile[]): Omit<LoadResult, "files"> {
  const definitions: LoadedDefinition[] = [];
  const problems: DefinitionProblem[] = [];
  for (const file of parsed) {
    definitions.push(...file.definitions);
    problems.push(...file.problems);
  }
  problems.push(...findDuplicates(definitions));
  return { definitions, problems: problems.sort(compareProblems) };
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
