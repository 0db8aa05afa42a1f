import { z } from "zod";
import { RequestValidationError } from "../errors/request-validation-error";
import type { HttpMethod, Route } from "../routes";
import { DateOrDateTime } from "../schemas";

/** Where a refused request would have gone; named in the error. */
export interface Target {
  readonly operation: string;
  readonly method: HttpMethod;
  /** The path template, e.g. `/v1/error-groups/{id}`: the real path may not be buildable. */
  readonly path: string;
}

/** The target of a client operation (`errorGroups.get`) that calls `route`. */
export const target = (operation: string, route: Pick<Route, "method" | "path">): Target => ({
  operation,
  method: route.method,
  path: route.path,
});

/**
 * A point in time given as a `Date` or a string. Dates become ISO strings in UTC; strings
 * must be RFC 3339 date-times or plain dates (spec 4.3 declares "date format").
 */
export const TimeInput = z.preprocess(
  (value) =>
    value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value,
  z
    .string({
      error: (issue) =>
        issue.input instanceof Date
          ? "is an invalid Date"
          : "must be a Date or an ISO 8601 string such as 2026-05-01T12:00:00.000Z",
    })
    .refine((text) => DateOrDateTime.safeParse(text).success, {
      error: (issue) =>
        `must be an RFC 3339 date-time such as 2026-05-01T12:00:00.000Z or a date such as 2026-05-01, not ${JSON.stringify(issue.input)}`,
    }),
);

/** Validates `input` against `schema` or throws a RequestValidationError; nothing is sent either way. */
export function checkRequest<S extends z.ZodType>(
  target: Target,
  schema: S,
  input: unknown,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new RequestValidationError({ ...target, problems: z.prettifyError(result.error) });
}
