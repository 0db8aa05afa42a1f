import { z } from "zod";
import { PathId, ServiceRef } from "../api/schemas";
import { always, noRepeats, notBlank, visibleId, visibleName } from "./field-checks";
import { STACK_NAME_PATTERN, STACK_NAME_RULE } from "./stack-name";

/*
 * What a definition refers to by name: the services it affects, the checks whose evidence
 * belongs with it, and the stacks that declare it.
 */

/** A Pulumi stack's name (see stack-name.ts). */
export const StackName = z
  .string()
  .regex(STACK_NAME_PATTERN, STACK_NAME_RULE)
  .describe("A Pulumi stack of this project: stack, org/stack or org/project/stack.");

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
