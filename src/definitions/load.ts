import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { isCatalogFile } from "./catalog";
import { findAliasConflicts, findDuplicates, findTwins } from "./duplicates";
import { capPerFile, type OmittedProblems } from "./file-problems";
import { parseDefinitionFile } from "./parse-file";
import { errorText, type ParseJob, parseJobsInParallel } from "./parse-jobs";
import type {
  CatalogService,
  DefinitionIdentity,
  LoadedDefinition,
  LoadedMaintenance,
  ParsedFile,
  SourceFile,
} from "./parsed-file";
import { compareProblems, compareText, type DefinitionProblem, type ProblemCode } from "./problem";
import { kindOf, notRegular, type Refusal } from "./read-regular-file";
import { nameServices } from "./service-names";

/** The outcome of loading definitions: every valid definition and every problem found. */
export interface LoadResult {
  /** Definitions that passed validation on their own, in file and document order. */
  readonly definitions: LoadedDefinition[];
  /** Maintenance windows (`kind: maintenance`) that passed validation, in file and document order. */
  readonly maintenance: LoadedMaintenance[];
  /** Every problem in every file, sorted by file, line and column. Empty when valid. */
  readonly problems: DefinitionProblem[];
  /** The definition files that were read, sorted. */
  readonly files: string[];
}

export interface LoadDefinitionsOptions {
  /**
   * Reads one file as UTF-8 text, e.g. from somewhere other than the local disk. The
   * reader decides what it reads; the text is then held to the same limits.
   * @default synchronous reads of regular files only, spread over parser threads
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
  if ("problem" in listed) {
    return { definitions: [], maintenance: [], problems: [listed.problem], files: [] };
  }
  if (listed.files.length === 0) {
    return {
      definitions: [],
      maintenance: [],
      files: [],
      problems:
        listed.problems.length > 0
          ? listed.problems
          : [
              {
                file: shown,
                code: "empty-directory",
                message: `the directory ${shown} holds no .yaml or .yml files; add an incident definition or point to the right directory`,
              },
            ],
    };
  }

  const files = listed.files.map((entry) => path.join(shown, entry.relative));
  const catalogs = new Set(
    listed.files.flatMap((entry, index) => (isCatalogFile(entry.relative) ? [files[index]!] : [])),
  );
  const jobs = options.readFile
    ? await readWith(options.readFile, files, catalogs)
    : listed.files.map(
        (entry, index): ParseJob => ({
          ...entry.job,
          path: files[index]!,
          catalog: catalogs.has(files[index]!),
        }),
      );
  const parsed = await parseJobsInParallel(jobs, options.threads);
  const combined = combine(parsed);
  const problems =
    listed.problems.length === 0
      ? combined.problems
      : [...combined.problems, ...listed.problems].sort(compareProblems);
  return { definitions: combined.definitions, maintenance: combined.maintenance, problems, files };
}

/** Reads through the caller's reader, a few files at a time; failures become problems. */
async function readWith(
  readFile: (file: string) => Promise<string>,
  files: readonly string[],
  catalogs: ReadonlySet<string>,
): Promise<ParseJob[]> {
  const limit = pLimit(READ_CONCURRENCY);
  return Promise.all(
    files.map((file) =>
      limit(async (): Promise<ParseJob> => {
        try {
          return { path: file, text: await readFile(file), catalog: catalogs.has(file) };
        } catch (error) {
          return {
            path: file,
            refused: {
              code: "unreadable-file",
              message: `the file could not be read: ${errorText(error)}`,
            },
          };
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

/**
 * Joins per-file results and adds the problems that span files (duplicate ids and
 * resource names, pasted twins, services without a name or with two), then caps each file's problems
 * again. Loops, not spreads: a spread of a very long array overflows the stack.
 */
function combine(parsed: readonly ParsedFile[]): Omit<LoadResult, "files"> {
  const loaded: LoadedDefinition[] = [];
  const maintenance: LoadedMaintenance[] = [];
  const identities: DefinitionIdentity[] = [];
  const catalog: CatalogService[] = [];
  const problems: DefinitionProblem[] = [];
  const omitted = new Map<string, OmittedProblems>();
  for (const file of parsed) {
    for (const definition of file.definitions) loaded.push(definition);
    for (const window of file.maintenance ?? []) maintenance.push(window);
    for (const identity of file.identities) identities.push(identity);
    for (const service of file.catalog ?? []) catalog.push(service);
    for (const problem of file.problems) {
      if (problem.code !== "too-many-problems") problems.push(problem);
    }
    if (file.omitted) omitted.set(file.omitted.file, file.omitted);
  }
  for (const problem of findDuplicates(identities)) problems.push(problem);
  for (const problem of findAliasConflicts(loaded)) problems.push(problem);
  for (const problem of findTwins(loaded)) problems.push(problem);
  const named = nameServices(loaded, catalog);
  for (const problem of named.problems) problems.push(problem);
  return {
    definitions: named.definitions,
    maintenance,
    problems: capPerFile(problems.sort(compareProblems), omitted),
  };
}

/** A definitions file found in the directory, and how to parse it. */
interface ListedFile {
  readonly relative: string;
  readonly job: { readonly readFrom: string } | { readonly refused: Refusal };
}

/** The files found, and the folder links that could not be followed. */
type Listing =
  | { files: ListedFile[]; problems: DefinitionProblem[] }
  | { problem: DefinitionProblem };

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
  const root = await realpath(dir);
  const tree = new FolderTree(dir, root);
  await tree.read("", root);
  await tree.followLinks();
  const candidates = tree.candidates.sort((a, b) => compareText(a.relative, b.relative));
  const files: ListedFile[] = [];
  for (const { entry, relative } of candidates) {
    const file = path.join(dir, relative);
    // Links are rare: resolving them one at a time keeps the common case synchronous.
    const job = entry.isSymbolicLink() ? await linkJob(file, root) : fileJob(entry, file);
    files.push({ relative, job });
  }
  return { files, problems: tree.problems };
}

/**
 * The folders of a definitions directory, each read once: the real ones, then those its links
 * lead to; a link out of it, to a folder read already or into a loop is a problem at its path.
 */
class FolderTree {
  /** Definition files found, by their path relative to the directory. */
  readonly candidates: { entry: Dirent; relative: string }[] = [];
  readonly problems: DefinitionProblem[] = [];
  /** Every folder read, by its real path, with the path it was read as. */
  readonly #read = new Map<string, string>();
  /** Links to folders, by their path relative to the directory, to follow once all is read. */
  readonly #links: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly root: string,
  ) {}

  /** Reads the folder at `relative` (the directory itself for ""), whose real path is `real`. */
  async read(relative: string, real: string): Promise<void> {
    this.#read.set(real, relative);
    const at = path.join(this.dir, relative);
    const entries = await readdir(at, { recursive: true, withFileTypes: true });
    const links: string[] = [];
    for (const entry of entries) {
      const within = path.relative(at, path.join(entry.parentPath, entry.name));
      const shown = path.join(relative, within);
      if (entry.isDirectory()) {
        // What a hidden folder holds is not read, so a link to it is the way to read it.
        if (isVisible(shown)) this.#read.set(path.join(real, within), shown);
      } else if (isDefinitionFile(shown)) {
        this.candidates.push({ entry, relative: shown });
      } else if (entry.isSymbolicLink() && isVisible(shown)) {
        links.push(shown);
      }
    }
    for (const link of links) {
      const target = await stat(path.join(this.dir, link)).catch(() => undefined);
      if (target?.isDirectory()) this.#links.push(link);
    }
  }

  /** Follows every link to a folder, those found in linked folders included, in path order. */
  async followLinks(): Promise<void> {
    while (this.#links.length > 0) {
      for (const link of this.#links.splice(0).sort(compareText)) await this.#follow(link);
    }
  }

  async #follow(link: string): Promise<void> {
    const target = await realpath(path.join(this.dir, link));
    const problem = (code: ProblemCode, message: string) =>
      this.problems.push({ file: path.join(path.normalize(this.dir), link), code, message });
    const inside = path.relative(this.root, target);
    if (inside.startsWith("..") || path.isAbsolute(inside)) {
      problem(
        "link-outside-directory",
        `the folder is a symbolic link to ${target}, outside the definitions directory; only folders inside it are read: move the folder in or remove the link`,
      );
      return;
    }
    const readAs = this.#read.get(target);
    if (readAs === undefined) {
      await this.read(link, target);
    } else if (readAs === "" || link.startsWith(`${readAs}${path.sep}`)) {
      problem(
        "folder-read-twice",
        `the folder is a symbolic link to ${target}, a folder that contains it, so it would be read without end; remove the link`,
      );
    } else {
      problem(
        "folder-read-twice",
        `the folder is a symbolic link to ${target}, which is read already as ${path.join(path.normalize(this.dir), readAs)}; a folder is read once: remove the link`,
      );
    }
  }
}

/** Whether no folder or file on the path is hidden (starts with a dot). */
function isVisible(relative: string): boolean {
  return !relative.split(/[\\/]/).some((segment) => segment.startsWith("."));
}

/**
 * How to read one directory entry: a regular file as it is; a symbolic link by the file
 * it resolves to, if that is inside the definitions directory; anything else (a FIFO, a
 * socket, a device, a link out of the directory) is refused without being opened.
 */
function fileJob(entry: Dirent, file: string): ListedFile["job"] {
  return entry.isFile() ? { readFrom: file } : { refused: notRegular(kindOf(entry)) };
}

async function linkJob(file: string, root: string): Promise<ListedFile["job"]> {
  let target: string;
  try {
    target = await realpath(file);
  } catch (error) {
    return {
      refused: {
        code: "unreadable-file",
        message: `the file could not be read: it is a symbolic link that does not resolve (${errorText(error)})`,
      },
    };
  }
  const inside = path.relative(root, target);
  if (inside.startsWith("..") || path.isAbsolute(inside)) {
    return {
      refused: {
        code: "link-outside-directory",
        message: `the file is a symbolic link to ${target}, outside the definitions directory; only files inside it are read: copy the file in or remove the link`,
      },
    };
  }
  return { readFrom: target };
}
