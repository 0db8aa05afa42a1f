import { MAX_PROBLEMS_PER_FILE } from "./limits";
import { type Position, PositionIndex } from "./position";
import { compareProblems, compareText, type DefinitionProblem, type ProblemCode } from "./problem";

/** Problems of one file beyond `MAX_PROBLEMS_PER_FILE`: how many, and where the first is. */
export interface OmittedProblems extends Position {
  readonly file: string;
  readonly count: number;
}

/** A message, or how to write it: only the problems that are listed get one written. */
export type Message = string | (() => string);

interface RawProblem {
  readonly offset: number;
  readonly code: ProblemCode;
  readonly message: Message;
  /** Order of reporting, which breaks ties between problems at one offset. */
  readonly order: number;
}

/**
 * Limits say that part of a file was not checked; they are listed whatever the cap, so
 * a file with many problems still says why the rest of it went unread (one of each at
 * most per file).
 */
const ALWAYS_LISTED: ReadonlySet<ProblemCode> = new Set([
  "file-too-large",
  "too-many-documents",
  "too-deep",
  "too-many-aliases",
]);

/**
 * Splits problems in file order into those listed (every limit, then the first others
 * up to `MAX_PROBLEMS_PER_FILE` in all) and those left out, keeping file order in both.
 */
function cap<T extends { readonly code: ProblemCode }>(
  sorted: readonly T[],
): {
  listed: T[];
  left: T[];
} {
  let room = MAX_PROBLEMS_PER_FILE;
  for (const problem of sorted) if (ALWAYS_LISTED.has(problem.code)) room--;
  const listed: T[] = [];
  const left: T[] = [];
  for (const problem of sorted) {
    if (ALWAYS_LISTED.has(problem.code)) listed.push(problem);
    else if (room > 0) {
      listed.push(problem);
      room--;
    } else left.push(problem);
  }
  return { listed, left };
}

/**
 * Collects the problems of one file by character offset. Only the problems that are
 * listed get a line, a column and a written message, so a file with many problems
 * costs one sort.
 */
export class FileProblems {
  readonly #raw: RawProblem[] = [];
  readonly #positions: PositionIndex;

  constructor(
    private readonly file: string,
    text: string,
  ) {
    this.#positions = new PositionIndex(text);
  }

  readonly report = (offset: number, code: ProblemCode, message: Message): void => {
    this.#raw.push({ offset, code, message, order: this.#raw.length });
  };

  get count(): number {
    return this.#raw.length;
  }

  /** The problems listed, in file order, and a count of the rest. */
  list(): { problems: DefinitionProblem[]; omitted: OmittedProblems | undefined } {
    const sorted = this.#raw.sort(
      (a, b) => a.offset - b.offset || compareText(a.code, b.code) || a.order - b.order,
    );
    const { listed, left } = cap(sorted);
    const problems = listed.map(
      (raw): DefinitionProblem => ({
        file: this.file,
        ...this.#positions.at(raw.offset),
        code: raw.code,
        message: typeof raw.message === "string" ? raw.message : raw.message(),
      }),
    );
    const first = left[0];
    if (first === undefined)
      return { problems: problems.sort(compareProblems), omitted: undefined };
    const omitted: OmittedProblems = {
      file: this.file,
      count: left.length,
      ...this.#positions.at(first.offset),
    };
    problems.push(omittedProblem(omitted));
    return { problems: problems.sort(compareProblems), omitted };
  }
}

/** The last problem listed for a file whose other problems are not all listed. */
export function omittedProblem(omitted: OmittedProblems): DefinitionProblem {
  const count = omitted.count.toLocaleString("en-US");
  return {
    file: omitted.file,
    line: omitted.line,
    column: omitted.column,
    code: "too-many-problems",
    message: `${count} more problem${omitted.count === 1 ? "" : "s"} from here on ${omitted.count === 1 ? "is" : "are"} not listed (at most ${MAX_PROBLEMS_PER_FILE} are listed per file); fix the ones above and validate again`,
  };
}

/**
 * Caps each file's problems again once problems that span files (duplicate ids) are
 * added, the same way, counting in the problems a file had already left out.
 * `problems` must be sorted and hold no `too-many-problems` entries.
 */
export function capPerFile(
  problems: readonly DefinitionProblem[],
  omittedBefore: ReadonlyMap<string, OmittedProblems>,
): DefinitionProblem[] {
  const capped: DefinitionProblem[] = [];
  let start = 0;
  while (start < problems.length) {
    const file = problems[start]!.file;
    let end = start;
    while (end < problems.length && problems[end]!.file === file) end++;
    const { listed, left } = cap(problems.slice(start, end));
    for (const problem of listed) capped.push(problem);
    const before = omittedBefore.get(file);
    const firstLeft = left[0];
    const at = [before, firstLeft && { line: firstLeft.line ?? 1, column: firstLeft.column ?? 1 }]
      .filter((position): position is Position => position !== undefined)
      .sort((a, b) => a.line - b.line || a.column - b.column)[0];
    if (at !== undefined) {
      const count = left.length + (before?.count ?? 0);
      capped.push(omittedProblem({ file, count, line: at.line, column: at.column }));
    }
    start = end;
  }
  return capped.sort(compareProblems);
}
