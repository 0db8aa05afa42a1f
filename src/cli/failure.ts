import { ApiError, ClientOptionsError } from "../api/errors";
import { GitSourceError } from "../definitions/git-source";
import { InvalidDefinitionsError } from "../definitions/invalid-definitions-error";
import type { DefinitionProblem } from "../definitions/problem";
import { PreviousReportError } from "../reports/errors/previous-report";
import { WindowError } from "../reports/heartbeats/window";
import { apiErrorMessage } from "../settings";
import { ApiOptionsError } from "./api-options";
import { ExitCode } from "./exit-codes";
import { redact } from "./redact";
import { UsageError } from "./usage-error";

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

/** A class of errors, for `instanceof`. */
export type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Errors whose message tells the user what to fix: they exit 1 with the message alone.
 * Anything else is a bug and is shown with its stack trace. Errors only one command can
 * throw (the emulator's seed errors, the engine's) are added by that command (see
 * `expectedErrors` of `action`), so no other command loads their modules.
 */
const EXPECTED_ERRORS: readonly ErrorClass[] = [
  ApiError,
  ClientOptionsError,
  ApiOptionsError,
  GitSourceError,
  InvalidDefinitionsError,
  PreviousReportError,
  WindowError,
  UsageError,
];

/**
 * The one mapping from what a command threw to what the CLI says and the exit code. Every
 * occurrence of each secret (the API key) is removed from the text. `expected` adds the
 * error classes of the command that ran to the ones every command shares.
 */
export function describeFailure(
  error: unknown,
  secrets: readonly string[] = [],
  expected: readonly ErrorClass[] = [],
): Failure {
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
    return { type: error.name, message: clean(apiErrorMessage(error)), exitCode: ExitCode.Failure };
  }
  if (
    error instanceof Error &&
    [...EXPECTED_ERRORS, ...expected].some((type) => error instanceof type)
  ) {
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
