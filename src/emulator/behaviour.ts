import { z } from "zod";
import { PUT_STATUS_ENV, PUT_STATUSES } from "./put-status";

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

/** The emulator's behaviour where the service's is unknown. */
export const Behaviour = z.strictObject({ putStatus: PutStatus });
export type Behaviour = z.infer<typeof Behaviour>;

export const DEFAULT_PUT_STATUS: PutStatus = "posts-update";

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
