import * as pulumi from "@pulumi/pulumi";
import type { IncidentStatus, Severity } from "../src/api";
import {
  DEFAULT_ON_REMOVE,
  type DeclaredEntry,
  INCIDENT_TYPE,
  type IncidentService,
  type Observation,
} from "../src/incident";
import { PACKAGE_VERSION } from "../src/package-version";
import type { IncidentState } from "./incident-state";

export type { DeclaredEntry, IncidentService } from "../src/incident";
export type { IncidentInputs, IncidentProvider, IncidentState } from "./incident-state";

/**
 * The provider every incident's state stores: a line that loads the operations by package name
 * from the project directory (`createRequire`: the plugin compiles it with no file name), so
 * the state holds no code, path or key, and the current checkout's code always runs.
 */
export const PROVIDER_SOURCE =
  'exports.handler = () => require("node:module").createRequire(require("node:path").join(process.cwd(), "package.json"))("incident-sync/provider-operations").provider();';

/**
 * Inputs of one status-page incident, mapped to `PUT /v1/status-pages/incidents/{incidentId}`,
 * and with `updates` to the updates posted on it (and to its creation, without `incidentId`).
 */
export interface IncidentArgs {
  /**
   * Path identifier of an existing incident to adopt; changing it replaces the resource. Left
   * out, the incident is new: the first apply opens it, and its id is the `incidentId` output.
   */
  incidentId?: pulumi.Input<string>;
  /** A new incident's resource name, which messages name it by until it exists. */
  resource?: pulumi.Input<string>;
  name: pulumi.Input<string>;
  severity: pulumi.Input<Severity>;
  status: pulumi.Input<IncidentStatus>;
  /**
   * Affected services, at least one, each with its name: the service's API requires `id`,
   * `name` and `accountId` (from the stack config) in every service object it is sent, so the
   * provider's check refuses a service without a name.
   */
  services: pulumi.Input<pulumi.Input<IncidentService>[]>;
  /** Passed to the API as is. */
  duration?: pulumi.Input<number | null>;
  /** `release` (default) leaves the incident as it is when the resource is deleted; `resolve` PUTs RESOLVED. */
  onRemove?: pulumi.Input<"release" | "resolve">;
  /** Allows moving a RESOLVED incident back to an open status. */
  reopen?: pulumi.Input<boolean>;
  /**
   * What customers read, oldest first: each entry is posted once, in order, notifying the
   * subscribers when it says so; the status is the last entry's. Required without `incidentId`.
   */
  updates?: pulumi.Input<pulumi.Input<DeclaredEntry>[]>;
  /**
   * What the program read of the incident's updates in this run (`observe(updates)`), so the
   * diff sees status changes and posts made on the status page. Optional: without it only
   * git changes are applied.
   */
  observed?: pulumi.Input<Observation>;
  /** A new incident: observations of the service's incidents that may be it, by id. */
  candidates?: pulumi.Input<Record<string, Observation> | undefined>;
  /**
   * Record the incident in the state without applying it: `incident-sync up`'s claim run, so
   * a killed run cannot forget what it adopted (`src/incident/claim.ts`). The next update
   * adopts it.
   */
  claimOnly?: pulumi.Input<boolean>;
}

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
