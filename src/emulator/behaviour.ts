import { z } from "zod";
import { PUT_STATUS_ENV, PUT_STATUSES, REFERENCE_OPERATIONS } from "./put-status";

export { PUT_STATUS_ENV };

/*
 * What the service does where its public reference is silent, one switch per unknown. The tool
 * must be right under every choice, so the tests run it under each.
 */

/**
 * What a PUT does with `lastUpdateStatus`, which the service does not document:
 * - `posts-update`: a changed status also posts an update "Status changed to <STATUS>";
 * - `sets-field`: the field is set and no update is posted, so the updates may show an older
 *   status than the live one (only the PUT's answer tells).
 */
export const PutStatus = z
  .enum(PUT_STATUSES)
  .describe(
    "What a PUT does with lastUpdateStatus: posts-update posts a status-change update; sets-field only sets the field.",
  );
export type PutStatus = z.infer<typeof PutStatus>;

/**
 * Whether the service has the incident operations of its public reference beyond the spec's
 * excerpt (create, read, list, post and change updates, remove): `available`, or a service
 * that answers them `not-found` (404) or `method-not-allowed` (405), as one with only the
 * excerpt's operations would.
 */
export const ReferenceOperations = z
  .enum(REFERENCE_OPERATIONS)
  .describe(
    "Whether the incident operations beyond the spec's excerpt exist: available, or answered 404 (not-found) or 405 (method-not-allowed).",
  );
export type ReferenceOperations = z.infer<typeof ReferenceOperations>;

/** The emulator's behaviour where the service's is unknown. */
export const Behaviour = z.strictObject({
  putStatus: PutStatus,
  referenceOperations: ReferenceOperations,
});
export type Behaviour = z.infer<typeof Behaviour>;

export const DEFAULT_PUT_STATUS: PutStatus = "posts-update";
export const DEFAULT_REFERENCE_OPERATIONS: ReferenceOperations = "available";

/** The PUT behaviour the environment asks for, else `fallback`; a value it does not know throws. */
export function putStatusFromEnvironment(
  fallback: PutStatus = DEFAULT_PUT_STATUS,
  env: NodeJS.ProcessEnv = process.env,
): PutStatus {
  const value = env[PUT_STATUS_ENV];
  if (value === undefined || value === "") return fallback;
  const parsed = PutStatus.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(
    `${PUT_STATUS_ENV} is ${JSON.stringify(value)}; it must be ${PutStatus.options.join(" or ")}`,
  );
}
