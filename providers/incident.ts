import * as pulumi from "@pulumi/pulumi";
import type { IncidentStatus, Severity } from "../src/api";
import { DEFAULT_ON_REMOVE, type IncidentService, type Observation } from "../src/incident";
import { PACKAGE_VERSION } from "../src/package-version";
import type { IncidentInputs, IncidentState, ProviderSession } from "./incident-operations";

export type { IncidentService } from "../src/incident";
export type { IncidentInputs, IncidentState, KnownLiveStatus } from "./incident-operations";

type Operations = typeof import("./incident-operations");

/**
 * The provider's operations, loaded in the engine's plugin process by package name from the
 * plugin's working directory, which the engine sets to the project directory (where
 * Pulumi.yaml is). There `incident-sync` resolves to the project itself (this repository, by
 * the self-reference of its `exports`) or to the installed package (a project that depends on
 * it). So the code that runs is always the current checkout's, wherever the state was
 * written, and the serialized provider holds no path. `createRequire` is needed because the
 * engine compiles the serialized provider as a module with no file name, from which Node
 * resolves neither self-references nor the project's node_modules.
 */
// Resolved once per plugin process; every later call of every method reuses the module. The
// body is what the state stores, so its comments live here, outside it. Pulumi parses the
// serialized code with the project's `typescript`, or, in a project without one, with the
// TypeScript 3.8 it vendors, which knows no `??=` or other syntax newer than ES2019: this code
// and the provider's methods keep to what 3.8 parses (found by installing the packed package
// into a project without TypeScript, test/engine/plain-cli.test.ts).
const operations = (provider: ProviderSession & { operations?: Operations }): Operations => {
  if (!provider.operations) {
    const { createRequire } = require("node:module") as typeof import("node:module");
    const { join } = require("node:path") as typeof import("node:path");
    provider.operations = createRequire(join(process.cwd(), "package.json"))(
      "incident-sync/provider-operations",
    ) as Operations;
  }
  return provider.operations;
};

/** Inputs of one status-page incident, mapped to `PUT /v1/status-pages/incidents/{incidentId}`. */
export interface IncidentArgs {
  /** Path identifier of the incident; changing it replaces the resource. */
  incidentId: pulumi.Input<string>;
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
   * What the program read of the incident's updates in this run (`observe(updates)`), so the
   * diff sees status changes and posts made on the status page. Optional: without it only
   * git changes are applied.
   */
  observed?: pulumi.Input<Observation>;
  /**
   * Record the incident in the state without applying it: `incident-sync up`'s claim run, so
   * a killed run cannot forget what it adopted (`src/incident/claim.ts`). The next update
   * adopts it.
   */
  claimOnly?: pulumi.Input<boolean>;
}

export type IncidentProvider = pulumi.dynamic.ResourceProvider<IncidentInputs, IncidentState> &
  ProviderSession;

/**
 * The provider is serialized into the state of every incident with its closure
 * (pulumi/pulumi#6490), so it is a small plain object of one-line methods that load the
 * operations when called: no client, schema, key or path is in the closure, and the state stays
 * small (the engine rewrites it after every step). One object is shared by all incidents, so
 * Pulumi serializes it once per program run. The API key is read in `configure()` from the
 * stack's secret config into this object, in the plugin process only.
 */
export const incidentProvider: IncidentProvider = {
  async configure(request) {
    await operations(this).configure(this, request);
  },
  async check(olds, news) {
    return operations(this).check(this, olds, news as unknown as Record<string, unknown>);
  },
  async diff(_id, olds, news) {
    return operations(this).diff(this, olds, news);
  },
  async create(inputs) {
    return operations(this).create(this, inputs);
  },
  async update(_id, olds, news) {
    return operations(this).update(this, olds, news);
  },
  async read(id, props) {
    return operations(this).read(this, id, props);
  },
  async delete(_id, props) {
    await operations(this).remove(this, props);
  },
};

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
export class Incident extends pulumi.dynamic.Resource {
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
  /** Updates the last PUT returned that the program had not read before it. */
  declare readonly appliedUpdates: pulumi.Output<IncidentState["appliedUpdates"]>;

  constructor(name: string, args: IncidentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      incidentProvider,
      name,
      {
        onRemove: DEFAULT_ON_REMOVE,
        ...args,
        providerVersion: PROVIDER_VERSION,
        appliedAt: undefined,
        live: undefined,
        appliedUpdates: undefined,
      },
      opts,
      "incident-sync",
      "Incident",
    );
  }
}
