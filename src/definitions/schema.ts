import { z } from "zod";
import {
  describeCharacter,
  findCharacter,
  IncidentRequest,
  IncidentStatus,
  IncidentUpdateRequest,
  isHiddenCharacter,
  PathId,
  type PathIdProblem,
  pathIdMessage,
  quoteText,
  ServiceRef,
  Severity,
} from "../api/schemas";
import { STACK_NAME_PATTERN, STACK_NAME_RULE, type StackRef, sameStack } from "./stack-name";

/**
 * What is wrong with a name or id written in a definition, in the shape `PathId` uses
 * (`params.pathId`), so one reader turns both into problems.
 */
export type TextProblem = Exclude<PathIdProblem, { kind: "dot-segment" }>;

/** Whether a text is non-empty but only whitespace. */
function isBlank(value: string): boolean {
  return value !== "" && value.trim() === "";
}

/**
 * Text checks are plain checks, not superRefine: they run for every id and name of every
 * definition, and superRefine adds a closure to each parse's payload.
 */
type TextPayload = z.core.ParsePayload<string>;

function addTextIssue(payload: TextPayload, problem: TextProblem, message: string): void {
  payload.issues.push({
    code: "custom",
    message,
    input: payload.value,
    params: { text: problem },
    continue: true,
  });
}

/** A title must say something: text that is only whitespace is refused. */
function notBlank(payload: TextPayload): void {
  if (isBlank(payload.value)) {
    addTextIssue(payload, { kind: "blank" }, pathIdMessage({ kind: "blank" }));
  }
}

/**
 * Refuses the first character of the text that cannot be seen or that changes how the text
 * around it is shown (controls, zero-width and bidirectional characters, see
 * `isHiddenCharacter`), other than those `allowed`, naming it and its position.
 */
function refuseHidden(payload: TextPayload, allowed: readonly string[], why: string): void {
  const found = findCharacter(
    payload.value,
    (character) => !allowed.includes(character) && isHiddenCharacter(character),
  );
  if (found === undefined) return;
  addTextIssue(
    payload,
    { kind: "character", ...found },
    `must not contain ${describeCharacter(found.codePoint)} (character ${found.position}), ${why}`,
  );
}

/**
 * An id that is not a path parameter (a service id, a resource name): not blank, and
 * free of characters a reader cannot see, which make two different ids look alike.
 */
function visibleId(payload: TextPayload): void {
  if (isBlank(payload.value)) {
    notBlank(payload);
    return;
  }
  refuseHidden(payload, [], "which cannot be seen and makes different ids look alike");
}

const SHOWN_DIFFERENTLY = "which cannot be seen or changes how the text around it is shown";

/**
 * A name shown to people (an incident's title, a service's name): no control character
 * other than a tab, and no zero-width or bidirectional character. An escape sequence or a
 * right-to-left override in a title would reach the status page, terminals and reviews.
 */
function visibleName(payload: TextPayload): void {
  refuseHidden(payload, ["\t"], SHOWN_DIFFERENTLY);
}

/** Free text for people (a reason): as a name, but it may run over several lines. */
function readableText(payload: TextPayload): void {
  refuseHidden(payload, ["\t", "\n"], SHOWN_DIFFERENTLY);
}

/**
 * What happens on the status page when a definition is deleted from `incidents/`.
 * `release` stops managing the incident and leaves it as it is; `resolve` sends one last
 * update with status RESOLVED first.
 */
export const OnRemove = z
  .enum(["release", "resolve"])
  .describe(
    "What happens when this definition is deleted: `release` leaves the incident on the status page as it is; `resolve` marks it RESOLVED first.",
  );
export type OnRemove = z.infer<typeof OnRemove>;
/** A definition that does not say: the incident is left on the status page as it is. */
export const DEFAULT_ON_REMOVE: OnRemove = "release";

/** A Pulumi stack's name (see stack-name.ts). */
export const StackName = z
  .string()
  .regex(STACK_NAME_PATTERN, STACK_NAME_RULE)
  .describe("A Pulumi stack of this project: stack, org/stack or org/project/stack.");

/**
 * Whether a definition is declared on `stack`: one with no `stacks` list belongs to every
 * stack, and an entry names the stack when it can be the same stack (`sameStack`: `prod` is
 * `acme/prod`). The program, `validate --stack` and `plan --stack` all choose by this rule.
 */
export function belongsToStack(
  definition: { stacks?: readonly string[] | undefined },
  stack: string | StackRef,
): boolean {
  return definition.stacks?.some((entry) => sameStack(entry, stack)) ?? true;
}

/**
 * A service in a definition: the API's service reference reduced to what a person writes. The
 * API requires every service's name; it is written here, or once for every incident in the
 * services catalog (`services.yaml` in the definitions directory, see catalog.ts).
 */
export const DefinitionServiceObject = z
  .strictObject({
    id: ServiceRef.shape.id.check(visibleId),
    name: ServiceRef.shape.name.check(notBlank).check(visibleName).optional(),
  })
  .describe(
    "An affected service: its id, and its name as the status page shows it. The name may be left out when the services catalog (services.yaml in the definitions directory) names the service.",
  );

/**
 * A service is written either as a bare id (`- svc-api`) or as a mapping
 * (`- { id: svc-api, name: Public API }`); both come out as `{ id, name? }`.
 */
export const DefinitionService = z.union([
  DefinitionServiceObject.shape.id
    .describe("A service id.")
    .transform((id): z.output<typeof DefinitionServiceObject> => ({ id })),
  DefinitionServiceObject,
]);
export type DefinitionService = z.output<typeof DefinitionService>;

/** Check ids (`what`: heartbeat or check), each a path parameter of the API, each listed once. */
const checkIdList = (what: string) =>
  z.array(PathId).superRefine(noRepeats(what), { when: always });

/** Where the evidence for an incident lives; read back by the program for reports. */
export const Evidence = z
  .strictObject({
    heartbeats: checkIdList("heartbeat")
      .optional()
      .describe(
        "Heartbeat check ids whose events (state changes and success ratios) belong with this incident.",
      ),
    checks: checkIdList("check")
      .optional()
      .describe("Check ids whose error groups belong with this incident."),
  })
  .describe("Checks whose data is read back alongside the incident.");
export type Evidence = z.infer<typeof Evidence>;

/**
 * The most entries `updates` may declare: the service lists an incident's 100 latest updates,
 * so an older one could not be found again to tell whether it was posted.
 */
export const MAX_DECLARED_UPDATES = 100;

/**
 * One entry of `updates`: what customers read on the status page, posted once, in order.
 * `notify: true` also sends it to every subscriber, which cannot be taken back; `at` backfills
 * the date customers see, and is never notified.
 */
export const DeclaredUpdateFields = z.strictObject({
  status: IncidentStatus.describe(
    "The status the incident moves to with this update: INVESTIGATING, IDENTIFIED, MONITORING or RESOLVED.",
  ),
  message: IncidentUpdateRequest.shape.description
    .check(notBlank)
    .check(readableText)
    .describe(
      "What customers read, as written (it may run over several lines). Posted once; an edit later changes it in place, and never notifies again.",
    ),
  notify: z
    .boolean()
    .default(false)
    .describe(
      "true sends this update to every subscriber of the status page when it is posted (e-mail and other channels); it cannot be taken back. Default false.",
    ),
  at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      "Backfills the date customers see (an RFC 3339 date-time such as 2026-11-26T09:40:00Z); left out, the update is dated when it is posted. A backfilled update notifies nobody.",
    ),
});
export const DeclaredUpdate = DeclaredUpdateFields.superRefine((entry, ctx) => {
  if (entry.notify && entry.at !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["notify"],
      message:
        'a backfilled entry (with "at") tells of the past, so it notifies nobody: remove "notify: true", or remove "at" to post it as news',
      params: { rule: "notify-refused" },
    });
  }
});
export type DeclaredUpdate = z.output<typeof DeclaredUpdate>;

/** Every allowed key of an entry of `updates`, for "did you mean" suggestions. */
export const DECLARED_UPDATE_KEYS: readonly string[] = Object.keys(DeclaredUpdateFields.shape);

/**
 * One incident definition as people write it in YAML (one YAML document each).
 * Field schemas come from the API schemas so the file and the request cannot disagree.
 */
export const IncidentDefinitionFields = z.strictObject({
  resource: z
    .string()
    .min(1)
    .check(visibleId)
    .optional()
    .describe(
      "The Pulumi resource name, unique across all definitions. Defaults to `id`; required without `id`, where it is how git and Pulumi know the incident. Keep it stable: changing `id` under the same resource replaces the incident.",
    ),
  aliases: z
    .array(z.string().min(1).check(visibleId))
    .superRefine(noRepeats("resource name"), { when: always })
    .optional()
    .describe(
      "Resource names this definition had before (its earlier `resource`, or its id when it had none). Pulumi then treats the rename as the same resource, and `up` changes nothing on the status page.",
    ),
  id: PathId.optional().describe(
    "The id of an incident that exists on the status page (the `{incidentId}` of the API), which `up` adopts. Left out, the definition declares a new incident: the first `up` opens it with the first entry of `updates`, and the id the service gives it is kept in the stack's state.",
  ),
  name: IncidentRequest.shape.name
    .check(notBlank)
    .check(visibleName)
    .describe("The incident title, at most 255 characters."),
  severity: Severity.describe("How bad it is: CRITICAL, MAJOR, MEDIUM or MINOR."),
  status: IncidentStatus.optional().describe(
    "Where the incident stands. With `updates` it is the last entry's status (and may be left out); without, it is sent as `lastUpdateStatus`. Going from RESOLVED back to another status needs `reopen: true`.",
  ),
  services: z
    .array(DefinitionService)
    .min(1)
    .superRefine(noRepeats("service"), { when: always })
    .describe(
      "The affected services, at least one: a service id or `{ id, name }`. Every service needs a name, here or in the services catalog (services.yaml).",
    ),
  duration: IncidentRequest.shape.duration.describe(
    "Passed to the API as is; the API does not define its unit.",
  ),
  updates: z
    .array(DeclaredUpdate)
    .min(1)
    .max(MAX_DECLARED_UPDATES)
    .optional()
    .describe(
      "What customers read, oldest first: each entry `{ status, message, notify, at }` is posted once, in this order, and the incident's status is the last entry's. Add an entry to tell customers more; never remove or reorder one that is posted.",
    ),
  evidence: Evidence.optional(),
  stacks: z
    .array(StackName)
    .min(1)
    .superRefine(noRepeats("stack"), { when: always })
    .optional()
    .describe(
      "The Pulumi stacks that manage this incident, such as [staging]. Left out, every stack does. On the other stacks it is not declared: removing a stack from the list removes the incident from that stack, as deleting the definition would.",
    ),
  onRemove: OnRemove.default(DEFAULT_ON_REMOVE),
  reopen: z
    .boolean()
    .optional()
    .describe("Set to true to allow moving a RESOLVED incident back to an open status."),
  reason: z
    .string()
    .min(1)
    .check(readableText)
    .optional()
    .describe(
      "Why this change is made, for the pull request's reviewers; it stays in git and is not sent to the status page. `plan` requires a new reason when the severity is lowered.",
    ),
});

/** Every allowed top-level key, for "did you mean" suggestions. */
export const DEFINITION_KEYS: readonly string[] = Object.keys(IncidentDefinitionFields.shape);

/** What the rules between fields read of a definition (or of the provider's inputs). */
export type DefinitionRuleFields = Pick<
  z.output<typeof IncidentDefinitionFields>,
  "id" | "resource" | "status" | "updates" | "reopen"
>;

/**
 * The rules between fields, each an issue at the field to change (`params.rule` names it):
 * of a definition, and of the provider's inputs, which call its `id` `incidentId`.
 */
export function checkTogether(definition: DefinitionRuleFields, ctx: z.RefinementCtx): void {
  const issue = (path: PropertyKey[], rule: string, message: string) =>
    ctx.addIssue({ code: "custom", path, message, params: { rule }, input: definition });
  const { updates } = definition;
  if (definition.id === undefined) {
    if (definition.resource === undefined && updates === undefined) {
      issue(
        [],
        "missing-key",
        'missing required field "id" (the incident id on the status page), or "resource" and "updates" to open a new incident',
      );
    } else if (definition.resource === undefined) {
      issue(
        [],
        "missing-key",
        'a definition without "id" declares a new incident and needs a "resource": the name git and Pulumi know it by (the id is the service\'s, once it exists)',
      );
    } else if (updates === undefined) {
      issue(
        [],
        "missing-key",
        'a definition without "id" declares a new incident and needs "updates": its first entry is the message customers read when it opens',
      );
    }
  }
  const last = updates?.[updates.length - 1];
  if (last === undefined) {
    if (definition.status === undefined) {
      issue(
        [],
        "missing-key",
        'missing required field "status" (one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED), or "updates" whose last entry gives it',
      );
    }
  } else if (definition.status !== undefined && definition.status !== last.status) {
    issue(
      ["status"],
      "status-mismatch",
      `status is ${definition.status}, but the last entry of updates says ${last.status}: the incident's status is its last update's. Remove "status", or add an entry with status ${definition.status} that tells customers why`,
    );
  }
  checkDates(updates ?? [], issue);
  updates?.forEach((entry, index) => {
    const before = updates[index - 1];
    if (
      before?.status === "RESOLVED" &&
      entry.status !== "RESOLVED" &&
      definition.reopen !== true
    ) {
      issue(
        ["updates", index, "status"],
        "reopen-without-flag",
        `updates[${index}] moves the incident from RESOLVED back to ${entry.status}, which tells customers the problem is back: add "reopen: true" to the definition to mean it`,
      );
    }
  });
}

/**
 * Backfilled dates tell what happened in order: each `at` is later than the one before, and
 * no backfilled entry follows one posted as news (which is dated when it was posted).
 */
function checkDates(
  updates: readonly DeclaredUpdate[],
  issue: (path: PropertyKey[], rule: string, message: string) => void,
): void {
  let latest: { at: number; index: number } | undefined;
  let live: number | undefined;
  updates.forEach((entry, index) => {
    if (entry.at === undefined) {
      live ??= index;
      return;
    }
    const at = Date.parse(entry.at);
    if (live !== undefined) {
      issue(
        ["updates", index, "at"],
        "out-of-order",
        `a backfilled entry cannot follow updates[${live}], which is dated when it is posted: move it before, or remove its "at"`,
      );
    } else if (latest !== undefined && at <= latest.at) {
      issue(
        ["updates", index, "at"],
        "out-of-order",
        `${entry.at} is not after updates[${latest.index}].at; entries are oldest first`,
      );
    }
    latest = { at, index };
  });
}

/**
 * A validated definition. `resource` falls back to `id`, `status` to the last entry of
 * `updates`, and `services` are objects whichever way they were written.
 */
export const IncidentDefinition = IncidentDefinitionFields.superRefine(checkTogether, {
  when: wellTyped,
})
  .transform((definition) => ({
    ...definition,
    // The rules above make sure one of each pair is there.
    resource: definition.resource ?? definition.id ?? "",
    status: definition.status ?? definition.updates?.at(-1)?.status ?? "INVESTIGATING",
  }))
  .meta({
    title: "incident-sync incident definition",
    description:
      "One status-page incident managed by incident-sync. A YAML file may hold several, separated by `---`.",
  });
export type IncidentDefinition = z.output<typeof IncidentDefinition>;
export type IncidentDefinitionInput = z.input<typeof IncidentDefinition>;

/** Runs a list's check even when some items failed, so every problem is told at once. */
function always(): boolean {
  return true;
}

/**
 * Runs the rules between fields when the fields they read passed their own checks, so a
 * definition with a typo in one field still hears about the others.
 */
export function wellTyped(payload: z.core.ParsePayload): boolean {
  const read = new Set(["id", "incidentId", "resource", "status", "updates"]);
  return !payload.issues.some((issue) =>
    (issue.path ?? []).length === 0
      ? issue.code !== "unrecognized_keys"
      : read.has(String(issue.path?.[0])),
  );
}

/**
 * Reports each id listed again, naming the item it repeats. Items that failed their own
 * schema are skipped, so a list with a bad item still gets its repeats reported.
 */
function noRepeats(what: string) {
  return (items: readonly unknown[], ctx: z.RefinementCtx): void => {
    if (!Array.isArray(items)) return;
    const firstIndex = new Map<string, number>();
    items.forEach((item, index) => {
      const id = typeof item === "string" ? item : idOf(item);
      if (id === undefined) return;
      const first = firstIndex.get(id);
      if (first === undefined) {
        firstIndex.set(id, index);
        return;
      }
      ctx.addIssue({
        code: "custom",
        path: [index],
        message: `${what} ${quoteText(id)} is listed twice (also item ${first + 1}); remove one`,
        input: item,
        params: { repeat: true },
      });
    });
  };
}

function idOf(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const id: unknown = (item as { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}
