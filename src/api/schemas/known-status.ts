import { z } from "zod";
import { IncidentStatus, Severity } from "./enums";

/*
 * What a server sends in an enum field is read as a string: a status or severity the service
 * adds later must not make a whole list of updates unreadable. These helpers say whether a
 * value is one we know; every rule that compares statuses goes through them, and a value we do
 * not know is shown as it is and treated as unknown.
 */

/** An incident status as a server sends it: one of IncidentStatus, or a value we do not know. */
export const ResponseStatus = z
  .string()
  .describe(
    `One of ${IncidentStatus.options.join(", ")}; another value is tolerated and read as an unknown status.`,
  );

/** A severity as a server sends it: one of Severity, or a value we do not know. */
export const ResponseSeverity = z
  .string()
  .describe(
    `One of ${Severity.options.join(", ")}; another value is tolerated and read as an unknown severity.`,
  );

const STATUSES: ReadonlySet<string> = new Set(IncidentStatus.options);

/** The status `value` names, or `undefined` when it is absent or not one we know. */
export function knownStatus(value: string | null | undefined): IncidentStatus | undefined {
  return value !== null && value !== undefined && STATUSES.has(value)
    ? (value as IncidentStatus)
    : undefined;
}
