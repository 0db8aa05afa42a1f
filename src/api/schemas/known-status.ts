import { z } from "zod";
import { IncidentStatus, Severity } from "./enums";

/*
 * An enum field of an answer is read as a string, so a value the service adds later spoils no
 * list; every rule comparing statuses asks these helpers, and an unknown one stays unknown.
 */

/** An enum field as a server sends it: one of `known`'s values, or one we do not know. */
export function responseEnum(known: z.ZodEnum, what: string) {
  return z
    .string()
    .describe(
      `One of ${known.options.join(", ")}; another value is tolerated and read as an unknown ${what}.`,
    );
}

/** The member of `known` that `value` names, or `undefined` when it is absent or unknown. */
export function knownMember<T extends string>(
  known: z.ZodEnum<{ [K in T]: K }>,
  value: string | null | undefined,
): T | undefined {
  const parsed = known.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** An incident status as a server sends it: one of IncidentStatus, or a value we do not know. */
export const ResponseStatus = responseEnum(IncidentStatus, "status");

/** A severity as a server sends it: one of Severity, or a value we do not know. */
export const ResponseSeverity = responseEnum(Severity, "severity");

/** The status `value` names, or `undefined` when it is absent or not one we know. */
export function knownStatus(value: string | null | undefined): IncidentStatus | undefined {
  return knownMember(IncidentStatus, value);
}
