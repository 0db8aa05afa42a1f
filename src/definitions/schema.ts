import { z } from "zod";
import { IncidentRequest, IncidentStatus, PathId, Severity } from "../api/schemas";
import {
  checkDates,
  DeclaredUpdate,
  DeclaredUpdateFields,
  MAX_DECLARED_UPDATES,
} from "./declared-update";
import { always, noRepeats, notBlank, readableText, visibleId, visibleName } from "./field-checks";
import { DefinitionService, Evidence, StackName } from "./references";

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

/** What customers read last when `onRemove: resolve` resolves an incident without `closing`. */
export const DEFAULT_CLOSING_MESSAGE = "This incident is resolved.";

/**
 * The last update `onRemove: resolve` posts, status RESOLVED, when the definition is deleted:
 * what customers read last, and whether the subscribers told of the opening hear it ended.
 */
export const Closing = z
  .strictObject({
    message: DeclaredUpdateFields.shape.message.describe(
      "What customers read last, as written, when the incident is resolved because this definition is deleted.",
    ),
    notify: z
      .boolean()
      .default(false)
      .describe(
        "true sends the closing update to every subscriber of the status page; it cannot be taken back. Default false.",
      ),
  })
  .describe(
    `With "onRemove: resolve" and "updates": the last update, status RESOLVED, posted when this definition is deleted (unless the incident is resolved already). Left out, it reads "${DEFAULT_CLOSING_MESSAGE}" and notifies nobody.`,
  );
export type Closing = z.output<typeof Closing>;

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
  closing: Closing.optional(),
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
  kind: z
    .literal("incident")
    .optional()
    .describe(
      "An incident, as a definition without `kind` is (`kind: maintenance` declares a maintenance window).",
    ),
});

/** Every allowed top-level key, for "did you mean" suggestions. */
export const DEFINITION_KEYS: readonly string[] = Object.keys(IncidentDefinitionFields.shape);

/** What the rules between fields read of a definition (or of the provider's inputs). */
export type DefinitionRuleFields = Pick<
  z.output<typeof IncidentDefinitionFields>,
  "id" | "resource" | "status" | "updates" | "reopen" | "onRemove" | "closing"
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
  if (definition.closing !== undefined && definition.onRemove !== "resolve") {
    issue(
      ["closing"],
      "closing-without-resolve",
      'closing is what customers read when the definition is deleted and its incident resolved, which "onRemove: resolve" asks for: add "onRemove: resolve", or remove "closing"',
    );
  } else if (definition.closing !== undefined && updates === undefined) {
    issue(
      ["closing"],
      "closing-without-updates",
      'closing is posted as the last of the incident\'s "updates"; without them, "onRemove: resolve" sets the status RESOLVED with a PUT and posts no message: declare "updates", or remove "closing"',
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

/**
 * Runs the rules between fields when the fields they read passed their own checks, so a
 * definition with a typo in one field still hears about the others.
 */
export function wellTyped(payload: z.core.ParsePayload): boolean {
  const read = new Set([
    "id",
    "incidentId",
    "resource",
    "status",
    "updates",
    "onRemove",
    "closing",
  ]);
  return !payload.issues.some((issue) =>
    (issue.path ?? []).length === 0
      ? issue.code !== "unrecognized_keys"
      : read.has(String(issue.path?.[0])),
  );
}
