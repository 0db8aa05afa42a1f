import { z } from "zod";
import { IncidentRequest, IncidentStatus, PathId, ServiceRef, Severity } from "../api/schemas";

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

/** A service in a definition: the API's service reference reduced to what a person writes. */
export const DefinitionServiceObject = ServiceRef.pick({ id: true, name: true }).describe(
  "An affected service: its id, and optionally its name for readers of the file and the status page.",
);

/**
 * A service is written either as a bare id (`- svc-api`) or as a mapping
 * (`- { id: svc-api, name: Public API }`); both come out as `{ id, name? }`.
 */
export const DefinitionService = z.union([
  ServiceRef.shape.id
    .describe("A service id.")
    .transform((id): z.output<typeof DefinitionServiceObject> => ({ id })),
  DefinitionServiceObject,
]);
export type DefinitionService = z.output<typeof DefinitionService>;

const CheckIdList = z.array(PathId);

/** Where the evidence for an incident lives; read back by the program for reports. */
export const Evidence = z
  .strictObject({
    heartbeats: CheckIdList.optional().describe(
      "Heartbeat check ids whose events (state changes and success ratios) belong with this incident.",
    ),
    checks: CheckIdList.optional().describe(
      "Check ids whose error groups belong with this incident.",
    ),
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
    .optional()
    .describe(
      "The Pulumi resource name, unique across all definitions. Defaults to `id`. Keep it stable: changing `id` under the same resource replaces the incident.",
    ),
  id: PathId.describe("The id of the incident on the status page (the `{incidentId}` of the API)."),
  name: IncidentRequest.shape.name.describe("The incident title, at most 255 characters."),
  severity: Severity.describe("How bad it is: CRITICAL, MAJOR, MEDIUM or MINOR."),
  status: IncidentStatus.describe(
    "Where the incident stands; sent as `lastUpdateStatus`. Going from RESOLVED back to another status needs `reopen: true`.",
  ),
  services: z
    .array(DefinitionService)
    .min(1)
    .describe("The affected services, at least one: a service id or `{ id, name }`."),
  duration: IncidentRequest.shape.duration.describe(
    "Passed to the API as is; the API does not define its unit.",
  ),
  evidence: Evidence.optional(),
  onRemove: OnRemove.default("release"),
  reopen: z
    .boolean()
    .optional()
    .describe("Set to true to allow moving a RESOLVED incident back to an open status."),
  reason: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Why this change is made. `plan` requires a new reason when the severity is lowered.",
    ),
});

/** Every allowed top-level key, for "did you mean" suggestions. */
export const DEFINITION_KEYS: readonly string[] = Object.keys(IncidentDefinitionFields.shape);

/**
 * A validated definition. `resource` falls back to `id`, and `services` are objects
 * whichever way they were written.
 */
export const IncidentDefinition = IncidentDefinitionFields.superRefine((definition, ctx) => {
  reportRepeats(
    definition.services.map((service) => service.id),
    ["services"],
    "service",
    ctx,
  );
  reportRepeats(
    definition.evidence?.heartbeats ?? [],
    ["evidence", "heartbeats"],
    "heartbeat",
    ctx,
  );
  reportRepeats(definition.evidence?.checks ?? [], ["evidence", "checks"], "check", ctx);
})
  .transform((definition) => ({ ...definition, resource: definition.resource ?? definition.id }))
  .meta({
    title: "incident-sync incident definition",
    description:
      "One status-page incident managed by incident-sync. A YAML file may hold several, separated by `---`.",
  });
export type IncidentDefinition = z.output<typeof IncidentDefinition>;
export type IncidentDefinitionInput = z.input<typeof IncidentDefinition>;

function reportRepeats(
  ids: readonly string[],
  path: readonly (string | number)[],
  what: string,
  ctx: z.RefinementCtx,
): void {
  const firstIndex = new Map<string, number>();
  ids.forEach((id, index) => {
    const first = firstIndex.get(id);
    if (first === undefined) {
      firstIndex.set(id, index);
      return;
    }
    ctx.addIssue({
      code: "custom",
      path: [...path, index],
      message: `${what} "${id}" is listed twice (also item ${first + 1}); remove one`,
      params: { repeat: true },
    });
  });
}
