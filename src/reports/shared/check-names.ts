import { DeadlineError, UnauthorizedError } from "../../api/errors";
import { named } from "../../named";

/** The part of the API client a report reads the checks' names through. */
export interface CheckLister {
  namesOf(checkIds: readonly string[]): Promise<Record<string, string>>;
}

/** Check ids to the names the service gives them; an id not in it is shown as the id. */
export type CheckNames = Readonly<Record<string, string>>;

/** What reading the names gave: the names found, and why some may be missing. */
export interface CheckNamesRead {
  names: CheckNames;
  /** The checks list could not be read: every check is shown by its id. */
  warning?: string;
}

/**
 * The names of `checkIds`, read once per run through the account's checks list
 * (`checks.namesOf`: a page at a time until every one is named or a page comes back short).
 * A check the list lacks, or has no name for, stays its id; a list that cannot be read leaves every id, with a warning, and
 * never fails the report (a wrong key or the run's deadline fail it where they fail the rest).
 */
export async function readCheckNames(
  lister: CheckLister,
  checkIds: readonly string[],
): Promise<CheckNamesRead> {
  try {
    return { names: await lister.namesOf(checkIds) };
  } catch (error) {
    if (error instanceof DeadlineError || error instanceof UnauthorizedError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return {
      names: {},
      warning: `the checks' names could not be read, so they are shown by id: ${why}`,
    };
  }
}

/**
 * A check as a report's lines name it: `Nightly invoice run (hb-7f3a)`, its id alone when the
 * service gives it no name.
 */
export function checkNamed(checkId: string, names: CheckNames): string {
  return named(Object.hasOwn(names, checkId) ? names[checkId] : undefined, [checkId]);
}
