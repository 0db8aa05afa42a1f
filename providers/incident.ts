import * as pulumi from "@pulumi/pulumi";
import type { IncidentStatus, Severity } from "../src/api";
import { DEFAULT_ON_REMOVE, INCIDENT_TYPE, type IncidentInputs } from "../src/incident";
import { PACKAGE_VERSION } from "../src/package-version";
import type { IncidentState } from "./incident-operations";
import { PROVIDER_SOURCE } from "./provider-session";

export type { IncidentInputs, IncidentProvider, IncidentState } from "./incident-operations";
export { PROVIDER_SOURCE };

/** A service as applied: its id and its name (which the API requires in every service object). */
export type IncidentService = IncidentInputs["services"][number];
/** One entry of `updates`: what customers read, posted once. */
export type DeclaredEntry = NonNullable<IncidentInputs["updates"]>[number];

/** What a program declares: the provider's inputs, `onRemove` defaulted, each a Pulumi input. */
type Declared = Omit<IncidentInputs, "providerVersion" | "onRemove" | "claimOnly"> &
  Partial<Pick<IncidentInputs, "onRemove">> & { claimOnly?: boolean };
type InputOf<T> = [NonNullable<T>] extends [readonly (infer E)[]]
  ? pulumi.Input<pulumi.Input<E>[]> | Extract<T, undefined>
  : pulumi.Input<T>;

/**
 * Inputs of one status-page incident, mapped to `PUT /v1/status-pages/incidents/{incidentId}`,
 * and with `updates` to the updates posted on it (and to its creation, without `incidentId`).
 */
export type IncidentArgs = { [K in keyof Declared]: InputOf<Declared[K]> };

/** Version of this package, an input of every incident so a new provider release is applied. */
export const PROVIDER_VERSION: string = PACKAGE_VERSION;

/**
 * One status-page incident, kept in step with its definition by the Pulumi engine.
 *
 * @example
 * new Incident("db-maintenance", {
 *   incidentId: "inc-db-maintenance", name: "Scheduled database maintenance",
 *   severity: "MINOR", status: "RESOLVED", services: [{ id: "svc-db" }],
 * });
 */
export class Incident extends pulumi.CustomResource {
  declare readonly incidentId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly severity: pulumi.Output<Severity>;
  /** The status as last applied, or as the last refresh found it live. */
  declare readonly status: pulumi.Output<IncidentStatus>;
  declare readonly services: pulumi.Output<IncidentService[]>;
  declare readonly onRemove: pulumi.Output<"release" | "resolve">;
  declare readonly providerVersion: pulumi.Output<string>;
  /** Server time of the last PUT. */
  declare readonly appliedAt: pulumi.Output<string>;
  /** The live status as the provider last knew it, and since when. */
  declare readonly live: pulumi.Output<IncidentState["live"]>;
  /** Updates the last apply made that the program had not read before it. */
  declare readonly appliedUpdates: pulumi.Output<IncidentState["appliedUpdates"]>;
  /** With `updates`: the id of each entry's update on the status page. */
  declare readonly updateIds: pulumi.Output<string[] | undefined>;

  constructor(name: string, args: IncidentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      INCIDENT_TYPE,
      name,
      {
        onRemove: DEFAULT_ON_REMOVE,
        // An output whether given or not: a new incident's id comes from the service.
        incidentId: undefined,
        ...args,
        providerVersion: PROVIDER_VERSION,
        appliedAt: undefined,
        live: undefined,
        appliedUpdates: undefined,
        updateIds: undefined,
        __provider: PROVIDER_SOURCE,
      },
      opts,
    );
  }
}
