import { z } from "zod";

/*
 * The account's checks as the service's public reference lists them ("Names of checks and
 * heartbeats"). Read for their names only, so read liberally: `id` is required, a check
 * without a name is accepted, and every other field is kept as sent.
 */

export const CHECKS_LIMIT_MAX = 100;

/** One check (`GET /v1/checks/{id}`): its id and name among many fields. */
export const Check = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  /** `API`, `BROWSER`, `HEARTBEAT`…; another value is tolerated. */
  checkType: z.string().nullish(),
  activated: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
});
export type Check = z.infer<typeof Check>;

/** Response of `GET /v1/checks`: a plain array, no envelope and no cursor. */
export const CheckList = z.array(Check);
export type CheckList = z.infer<typeof CheckList>;

/** Query of the checks list: offset pages as the error-group list's, and three filters. */
export const ChecksQuery = z.strictObject({
  limit: z.int().min(1).max(CHECKS_LIMIT_MAX).optional(),
  page: z.int().min(1).optional(),
  /** Only checks of this type, e.g. `HEARTBEAT`. */
  checkType: z.string().min(1).optional(),
  tag: z.string().min(1).optional(),
  /** Only checks whose name holds this text. */
  search: z.string().min(1).optional(),
});
export type ChecksQuery = z.infer<typeof ChecksQuery>;
