import { z } from "zod";
import {
  describeCharacter,
  findCharacter,
  IncidentRequest,
  IncidentStatus,
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
      "The Pulumi resource name, unique across all definitions. Defaults to `id`. Keep it stable: changing `id` under the same resource replaces the incident.",
    ),
  aliases: z
    .array(z.string().min(1).check(visibleId))
    .superRefine(noRepeats("resource name"), { when: always })
    .optional()
    .describe(
      "Resource names this definition had before (its earlier `resource`, or its id when it had none). Pulumi then treats the rename as the same resource, and `up` changes nothing on the status page.",
    ),
  id: PathId.describe("The id of the incident on the status page (the `{incidentId}` of the API)."),
  name: IncidentRequest.shape.name
    .check(notBlank)
    .check(visibleName)
    .describe("The incident title, at most 255 characters."),
  severity: Severity.describe("How bad it is: CRITICAL, MAJOR, MEDIUM or MINOR."),
  status: IncidentStatus.describe(
    "Where the incident stands; sent as `lastUpdateStatus`. Going from RESOLVED back to another status needs `reopen: true`.",
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

/**
 * A validated definition. `resource` falls back to `id`, and `services` are objects
 * whichever way they were written.
 */
export const IncidentDefinition = IncidentDefinitionFields.transform((definition) => ({
  ...definition,
  resource: definition.resource ?? definition.id,
})).meta({
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
