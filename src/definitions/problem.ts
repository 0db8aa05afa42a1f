import { safeLine } from "../safe-text";
/** Stable identifiers of the problems the loader reports, for tools that read JSON. */
export type ProblemCode =
  | "missing-directory"
  | "not-a-directory"
  | "empty-directory"
  | "unreadable-file"
  | "not-a-regular-file"
  | "link-outside-directory"
  | "folder-read-twice"
  | "file-too-large"
  | "invalid-utf8"
  | "too-many-documents"
  | "too-deep"
  | "too-many-aliases"
  | "too-many-problems"
  | "empty-file"
  | "yaml-syntax"
  | "unsupported-tag"
  | "not-a-mapping"
  | "unknown-key"
  | "missing-key"
  | "invalid-type"
  | "invalid-value"
  | "too-long"
  | "too-short"
  | "blank-text"
  | "invalid-character"
  | "empty-list"
  | "repeated-item"
  | "duplicate-id"
  | "duplicate-resource"
  | "duplicate-incident"
  | "alias-conflict"
  | "unnamed-service"
  | "unknown-service"
  | "service-name-conflict"
  | "status-mismatch"
  | "notify-refused"
  | "out-of-order"
  | "reopen-without-flag"
  | "closing-without-resolve"
  | "closing-without-updates"
  | "unknown-kind"
  | "maintenance-not-applied"
  | "invalid-time"
  | "invalid-timezone"
  | "end-before-start"
  | "services-and-all"
  | "needs-status-pages"
  | "until-before-start"
  | "missing-occurrence"
  | "unknown-occurrence"
  /** A `stacks` entry that names no stack of the project. */
  | "unknown-stack";

/**
 * One problem in the definitions. `line` and `column` are 1-based and point at the
 * offending key or value; they are absent only for problems with a whole directory.
 */
export interface DefinitionProblem {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly code: ProblemCode;
  readonly message: string;
}

/** Orders problems by file, then position, then code and message, so output is stable. */
export function compareProblems(a: DefinitionProblem, b: DefinitionProblem): number {
  return (
    compareText(a.file, b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    compareText(a.code, b.code) ||
    compareText(a.message, b.message)
  );
}

/** Code-point order, independent of the machine's locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `file:line:column`, or just the file for directory problems. */
export function formatLocation(
  problem: Pick<DefinitionProblem, "file" | "line" | "column">,
): string {
  if (problem.line === undefined) return problem.file;
  return `${problem.file}:${problem.line}:${problem.column ?? 1}`;
}

/**
 * One problem as one line, `file:line:column: message [code]`, as every command prints it:
 * through `safeLine`, so nothing from a file breaks the line or starts a workflow command.
 */
export function formatProblem(problem: DefinitionProblem): string {
  return safeLine(`${formatLocation(problem)}: ${problem.message} [${problem.code}]`);
}
