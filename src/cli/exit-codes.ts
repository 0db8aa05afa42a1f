/**
 * Exit codes shared by every command. They are part of the CLI's contract: scripts and
 * CI steps branch on them, so values never change meaning.
 */
export const ExitCode = {
  /** Success: the input is valid, or there is nothing to do. */
  Ok: 0,
  /** An error: invalid input or definitions, missing settings, auth, network, git. */
  Failure: 1,
  /** Success, and there is something to act on: changes to apply (`plan`), drift (`drift`). */
  Changes: 2,
  /** There are changes, and some break the lifecycle policy (`plan`). */
  PolicyViolation: 3,
  /**
   * No drift found, but not everything could be checked (`drift`): a new incident whose id is
   * in a stack's state that was not read, or a `--stack` whose state could not be read; and
   * `report incident` whose `--stack` state is another project's or stack's, refused.
   */
  NotChecked: 4,
  /**
   * Stopped at the command's deadline (`--deadline`), as `timeout(1)` exits: every command that
   * reads or writes the API; `up`, `preview` and `refresh` after stopping the engine.
   */
  DeadlinePassed: 124,
  /** Stopped by SIGINT, after the engine finished the steps in flight (`up`, `preview`, `refresh`). */
  StoppedBySigint: 130,
  /** Stopped by SIGTERM, likewise (128 + the signal's number, as shells report it). */
  StoppedBySigterm: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
