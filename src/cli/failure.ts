import { ApiError, DeadlineError } from "../api/errors";
import { InvalidDefinitionsError } from "../definitions/invalid-definitions-error";
import type { DefinitionProblem } from "../definitions/problem";
import { apiErrorMessage } from "../settings";
import { UserError } from "../user-error";
import { ExitCode } from "./exit-codes";
import { redact } from "./redact";

/** Why a command failed, as the CLI reports it: on stderr and as an error document. */
export interface Failure {
  /**
   * The kind of error, stable for tools: the error class (`UnauthorizedError`,
   * `GitSourceError`, `InvalidDefinitionsError`, …), or `InternalError` for a bug.
   */
  readonly type: string;
  /** One sentence (or a few) saying what went wrong and what to do; never holds the API key. */
  readonly message: string;
  readonly exitCode: ExitCode;
  /** Every problem, when the definitions are not valid. */
  readonly problems?: readonly DefinitionProblem[];
  /** A bug's stack trace, for the report; errors the user can fix have none. */
  readonly stack?: string;
}

/**
 * The one mapping from what a command threw to message and exit code: a `UserError` exits 1
 * with its message alone, anything else shows its stack; every secret is removed.
 */
export function describeFailure(error: unknown, secrets: readonly string[] = []): Failure {
  const clean = (text: string) => redact(text, secrets);
  if (error instanceof InvalidDefinitionsError) {
    return {
      type: error.name,
      message: clean(error.message),
      exitCode: ExitCode.Failure,
      problems: error.problems.map((problem) => ({ ...problem, message: clean(problem.message) })),
    };
  }
  if (error instanceof ApiError) {
    return {
      type: error.name,
      message: clean(apiErrorMessage(error)),
      exitCode: error instanceof DeadlineError ? ExitCode.DeadlinePassed : ExitCode.Failure,
    };
  }
  if (error instanceof UserError) {
    return { type: error.name, message: clean(error.message), exitCode: ExitCode.Failure };
  }
  if (isSystemError(error)) {
    // A file that cannot be written or read (`--out` in a missing folder, a closed pipe).
    return { type: "SystemError", message: clean(error.message), exitCode: ExitCode.Failure };
  }
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error && error.stack ? error.stack : undefined;
  return {
    type: "InternalError",
    message: clean(
      `unexpected error (a bug in incident-sync; please report it with the trace below): ${message}`,
    ),
    exitCode: ExitCode.Failure,
    ...(stack === undefined ? {} : { stack: clean(stack) }),
  };
}

/** The failure as the value of an `error` member of a JSON document. */
export function failureJson(failure: Failure): {
  type: string;
  message: string;
  problems?: readonly DefinitionProblem[];
} {
  return {
    type: failure.type,
    message: failure.message,
    ...(failure.problems ? { problems: failure.problems } : {}),
  };
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === "string" &&
    typeof (error as NodeJS.ErrnoException).syscall === "string"
  );
}
