import { z } from "zod";
import { IncidentStatus, Severity } from "./enums";

/*
 * An enum field of an answer is read as a string, so a value the service adds later spoils no
 * list; every rule comparing statuses asks these helpers, and an unknown one stays unknown.
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
