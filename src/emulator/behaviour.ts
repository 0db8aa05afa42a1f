import { z } from "zod";
import {
  ACCOUNT_HEADERS,
  ANSWERS,
  BEHAVIOUR_ENV,
  CREATE_ANSWERS,
  CREATE_DELAY_MAX_MS,
  DUPLICATE_ANSWERS,
  EDIT_DATES,
  LIST_ORDERS,
  MAINTENANCE_OCCURRENCES,
  PUT_STATUS_ENV,
  PUT_STATUSES,
  RATE_WINDOW_PATTERN,
  REFERENCE_OPERATIONS,
  SERVICE_NAMES,
  SERVICES_IN_USE,
  UNKNOWN_CHECKS,
} from "./behaviour-names";

export { BEHAVIOUR_ENV, PUT_STATUS_ENV };

/*
 * What the service does where its public reference is silent, one switch per unknown. The tool
 * must be right under every choice, so the tests run it under each.
 */

/** The emulator's behaviour where the service's is unknown: one switch a member. */
export const Behaviour = z.strictObject({
  /**
   * What a PUT does with `lastUpdateStatus`, which the service does not document:
   * - `posts-update`: a changed status also posts an update "Status changed to <STATUS>";
   * - `sets-field`: the field is set and no update is posted, so the updates may show an older
   *   status than the live one (only the PUT's answer tells);
   * - `ignores`: the field is left as it was; the answer shows the status the incident kept.
   */
  putStatus: z
    .enum(PUT_STATUSES)
    .describe(
      "What a PUT does with lastUpdateStatus: posts-update posts a status-change update; sets-field only sets the field; ignores leaves the status as it was.",
    ),
  /**
   * Whether the service has the incident operations of its public reference beyond the spec's
   * excerpt (create, read, list, post and change updates, remove): `available`, or a service
   * that answers them `not-found` (404) or `method-not-allowed` (405), as one with only the
   * excerpt's operations would.
   */
  referenceOperations: z
    .enum(REFERENCE_OPERATIONS)
    .describe(
      "Whether the incident operations beyond the spec's excerpt exist: available, or answered 404 (not-found) or 405 (method-not-allowed).",
    ),
  /**
   * The order of heartbeat events and incident updates, which the spec does not give:
   * `newest-first`, or `oldest-first`, where an events call's `limit` keeps the oldest of the
   * window and an incident's 100 latest updates are listed oldest first.
   */
  listOrder: z
    .enum(LIST_ORDERS)
    .describe(
      "The order of heartbeat events and incident updates: newest-first, or oldest-first (an events call's limit then keeps the oldest of the window).",
    ),
  /**
   * The service's rate limit as a window the emulator enforces per API key: at most `limit`
   * requests in any `seconds`, the rest answered 429 without `Retry-After` (the contract
   * documents none). `off`: no window.
   */
  rateWindow: z
    .union([
      z.literal("off"),
      z.strictObject({
        limit: z.int().min(1).max(1_000_000),
        seconds: z.int().min(1).max(86_400),
      }),
    ])
    .describe(
      'A rate window per API key: at most limit requests in any seconds, the rest answered 429 without Retry-After; "off" for none.',
    ),
  /** What the heartbeat events and error-group list answer for a check the account does not have. */
  unknownCheck: z
    .enum(UNKNOWN_CHECKS)
    .describe(
      "What the heartbeat events and error-group list answer for an unknown check: not-found (404) or empty ([]).",
    ),
  /** Whether the account header is optional (an account's key) or required (a personal key: 401 without it). */
  accountHeader: z
    .enum(ACCOUNT_HEADERS)
    .describe(
      "Whether x-service-account may be left out (optional) or is required, as with a personal API key (401 without it).",
    ),
  /** `full` answers, or `lean` ones that leave out every field the service's contract lets it leave out. */
  answers: z
    .enum(ANSWERS)
    .describe(
      "full answers, or lean ones that leave out every field the service's contract does not promise.",
    ),
  /**
   * What a create answers (the contract promises the incident, not that its updates carry
   * their ids): `full`, `without-update-ids`, or `without-updates` (`incidentUpdates: []`).
   * The incident is made in full either way; a read shows it.
   */
  createAnswer: z
    .enum(CREATE_ANSWERS)
    .describe(
      "What a create answers: full, without-update-ids (its updates without their ids), or without-updates (incidentUpdates: []); the incident is made in full either way.",
    ),
  /**
   * How long the service holds a create before it carries it out and answers, in ms: a slow
   * service, or past the client's timeout one that makes the incident after the client gave up.
   */
  createDelayMs: z
    .int()
    .min(0)
    .max(CREATE_DELAY_MAX_MS)
    .describe(
      "How long a create is held before it is carried out and answered, in ms; past the client's timeout it is made after the client gave up.",
    ),
  /**
   * What an update PUT without `publicIncidentUpdateDate` does to its public date: `kept`, or
   * `now`, as the reference's default for the field (a server-side now) suggests; an update
   * re-dated to now moves the incident's duration and can become its newest.
   */
  editDate: z
    .enum(EDIT_DATES)
    .describe(
      "What an update PUT without publicIncidentUpdateDate does to the update's public date: kept, or now (re-dated to the time of the PUT).",
    ),
  /**
   * How a duplicate is refused, which the reference does not say: a status page `url` already
   * taken (unique across the service), or a service name with `serviceNames: unique`.
   */
  duplicateAnswer: z
    .enum(DUPLICATE_ANSWERS)
    .describe(
      "How a duplicate (a status page url already taken, a service name with serviceNames unique) is refused: bad-request (400) or conflict (409).",
    ),
  /** Whether two services of an account may share a name (the reference does not say). */
  serviceNames: z
    .enum(SERVICE_NAMES)
    .describe(
      "Whether services of an account may share a name (repeatable), or a create or rename to a name taken is refused (unique).",
    ),
  /**
   * What removing a service still named by incidents or cards does: `removed` (cards drop it,
   * incidents show its id alone), or `refused` with 409 naming what uses it.
   */
  serviceInUse: z
    .enum(SERVICES_IN_USE)
    .describe(
      "What removing a service named by incidents or cards does: removed (cards drop it, incidents show its id alone) or refused (409).",
    ),
  /**
   * Which maintenances a recurring window has (the contract says one is made "each time it
   * runs"): `next`, those begun and the next to come, each following one made when one
   * begins; or `all`, every one up to `repeatEndsAt` (at most 100) made with the window.
   */
  maintenanceOccurrences: z
    .enum(MAINTENANCE_OCCURRENCES)
    .describe(
      "Which maintenances a recurring window has: next (those begun and the next; each following one made when one begins) or all (every one up to repeatEndsAt, at most 100, made with the window).",
    ),
});
export type Behaviour = z.infer<typeof Behaviour>;

/** What a PUT does with `lastUpdateStatus` (see `Behaviour`), for the option and its variable. */
export const PutStatus = Behaviour.shape.putStatus;
export type PutStatus = Behaviour["putStatus"];
export type ReferenceOperations = Behaviour["referenceOperations"];
export type ListOrder = Behaviour["listOrder"];
export type RateWindow = Behaviour["rateWindow"];
export type UnknownCheck = Behaviour["unknownCheck"];
export type AccountHeader = Behaviour["accountHeader"];
export type Answers = Behaviour["answers"];
export type CreateAnswer = Behaviour["createAnswer"];
export type EditDate = Behaviour["editDate"];
export type DuplicateAnswer = Behaviour["duplicateAnswer"];
export type ServiceNames = Behaviour["serviceNames"];
export type ServiceInUse = Behaviour["serviceInUse"];
export type MaintenanceOccurrences = Behaviour["maintenanceOccurrences"];

export const DEFAULT_PUT_STATUS: PutStatus = "posts-update";
export const DEFAULT_REFERENCE_OPERATIONS: ReferenceOperations = "available";

/** What the emulator does unless told otherwise: the most forgiving service. */
export const DEFAULT_BEHAVIOUR: Behaviour = {
  putStatus: DEFAULT_PUT_STATUS,
  referenceOperations: DEFAULT_REFERENCE_OPERATIONS,
  listOrder: "newest-first",
  rateWindow: "off",
  unknownCheck: "not-found",
  accountHeader: "optional",
  answers: "full",
  createAnswer: "full",
  createDelayMs: 0,
  editDate: "kept",
  duplicateAnswer: "bad-request",
  serviceNames: "repeatable",
  serviceInUse: "removed",
  maintenanceOccurrences: "next",
};

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
    `${PUT_STATUS_ENV} is ${JSON.stringify(value)}; it must be ${PutStatus.options.slice(0, -1).join(", ")} or ${PutStatus.options.at(-1)}`,
  );
}

/** The behaviours `INCIDENT_SYNC_EMULATOR_BEHAVIOUR` asks for (JSON, as `PATCH /_control/behaviour`). */
export function behaviourFromEnvironment(env: NodeJS.ProcessEnv = process.env): Partial<Behaviour> {
  const value = env[BEHAVIOUR_ENV];
  if (value === undefined || value.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error(
      `${BEHAVIOUR_ENV} is not JSON; write it as {"listOrder":"oldest-first","answers":"lean"}`,
    );
  }
  const parsed = Behaviour.partial().safeParse(json);
  if (parsed.success) return parsed.data;
  throw new Error(`${BEHAVIOUR_ENV} is not a behaviour:\n${z.prettifyError(parsed.error)}`);
}

/** `600/60s` as a rate window, or undefined when the text is not one. */
export function parseRateWindow(text: string): RateWindow | undefined {
  if (text === "off") return "off";
  const match = RATE_WINDOW_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const parsed = Behaviour.shape.rateWindow.safeParse({
    limit: Number(match[1]),
    seconds: Number(match[2]),
  });
  return parsed.success ? parsed.data : undefined;
}
