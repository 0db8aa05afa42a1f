/**
 * Exit codes shared by every command. They are part of the CLI's contract: scripts and
 * CI steps branch on them, so values never change meaning.
 */
export const ExitCode = {
  /** Success: the input is valid, or there is nothing to do. */
  Ok: 0,
  /** Invalid input or a failure (bad definitions, unreachable API, git error). */
  Failure: 1,
  /** Success, and there are changes to apply (`plan`). */
  Changes: 2,
  /** There are changes, and some break the lifecycle policy (`plan`). */
  PolicyViolation: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
