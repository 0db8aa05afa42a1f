import { z } from "zod";
import type { IncidentStatus } from "../api/schemas";
import { checkTogether, IncidentDefinitionFields, wellTyped } from "../definitions/schema";
import {
  declarationOf,
  type IncidentDeclaration,
  incidentLabel,
  unnamedServices,
  unnamedServicesMessage,
} from "./declaration";
import { reopenRefused, reopenWithoutFlagMessage } from "./lifecycle";
import { missingMessage } from "./messages";
import { Observation } from "./observation";

/** The provider's inputs: a declaration, and what the program adds to it in this run. */
export interface IncidentInputs extends IncidentDeclaration {
  /** The incident-sync release that declared them: a new release re-applies and re-records. */
  providerVersion: string;
  /**
   * What the program read of the incident in this run (`observe(updates)`), so the diff sees
   * status changes and posts made on the status page; absent, only git's changes apply.
   */
  observed?: Observation;
  /**
   * A new incident (no `incidentId`): what the program read of the service's incidents that
   * may be the one it opened, by id. The provider takes the one its state names.
   */
  candidates?: Record<string, Observation>;
  /**
   * Record the incident in the state without applying it: `incident-sync up`'s claim run, so
   * a killed run cannot forget what it adopted (`claim.ts`). The next update adopts it.
   */
  claimOnly?: true;
}

const fields = IncidentDefinitionFields.shape;

/**
 * The provider's inputs as the engine hands them to `check`, parsed once: the definition's own
 * field schemas and rules (its `id` is `incidentId` here), so an `Incident` declared in code
 * passes the same rules as a YAML one. Keys of the engine's own (`__provider`) are left out.
 */
export const IncidentInputs = z
  .object({
    incidentId: fields.id,
    resource: fields.resource,
    name: fields.name,
    severity: fields.severity,
    status: fields.status,
    services: fields.services,
    duration: fields.duration,
    onRemove: fields.onRemove,
    closing: fields.closing,
    reopen: fields.reopen,
    updates: fields.updates,
    providerVersion: z.string().default(""),
    observed: Observation.optional(),
    candidates: z.record(z.string(), Observation).optional(),
    claimOnly: z.boolean().optional(),
  })
  .superRefine((inputs, ctx) => checkTogether({ ...inputs, id: inputs.incidentId }, ctx), {
    when: wellTyped,
  })
  .transform(({ incidentId, providerVersion, observed, candidates, claimOnly, ...rest }) => ({
    ...declarationOf({
      ...rest,
      id: incidentId,
      resource: rest.resource ?? incidentId ?? "",
      status: rest.status ?? rest.updates?.at(-1)?.status ?? ("INVESTIGATING" as IncidentStatus),
    }),
    providerVersion,
    ...(observed === undefined ? {} : { observed }),
    ...(candidates === undefined ? {} : { candidates }),
    ...(claimOnly === true ? { claimOnly: true as const } : {}),
  }));

/** An input refused, named by its property, as the provider's `check` reports it. */
export interface InputFailure {
  property: string;
  reason: string;
}

/**
 * The provider's `check`: the inputs parsed once and held to the definition's rules, then to
 * what only the provider knows (the service's required names, an incident the program found
 * missing, a reopen of the last apply's RESOLVED). `olds` is the last apply's inputs.
 */
export function checkInputs(
  olds: { status?: IncidentStatus | undefined },
  news: unknown,
  options: { accountId?: string | undefined },
): { inputs: IncidentInputs } | { failures: InputFailure[] } {
  const parsed = IncidentInputs.safeParse(news);
  if (!parsed.success) {
    return {
      failures: parsed.error.issues.map((issue) => {
        const [first, ...rest] = issue.path.map(String);
        const where = rest.length > 0 ? ` (at ${rest.join(".")})` : "";
        return { property: first ?? "incidentId", reason: `${issue.message}${where}` };
      }),
    };
  }
  const inputs = parsed.data;
  const label = incidentLabel(inputs.incidentId, inputs.resource);
  const failure = (property: string, reason: string) => ({ failures: [{ property, reason }] });
  const unnamed = unnamedServices(inputs.services);
  if (unnamed.length > 0) return failure("services", unnamedServicesMessage(label, unnamed));
  if (inputs.observed?.kind === "missing") {
    return failure("incidentId", missingMessage(label, options.accountId));
  }
  // Reopening a resolved incident notifies subscribers again: it has to be meant.
  if (reopenRefused(olds.status, inputs.status, inputs.reopen)) {
    return failure("status", `incident ${label}: ${reopenWithoutFlagMessage(inputs.status)}`);
  }
  return { inputs };
}
