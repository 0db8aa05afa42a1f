import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { IncidentStatus, Severity } from "../src/api";
import { PACKAGE_VERSION } from "../src/package-version";
import type {
  IncidentInputs,
  IncidentService,
  IncidentState,
  ProviderSession,
} from "./incident-operations";

export type {
  IncidentInputs,
  IncidentService,
  IncidentState,
} from "./incident-operations";

/**
 * The compiled module holding the provider's operations. The provider runs in the engine's
 * `pulumi-resource-pulumi-nodejs` process, which cannot resolve this package by name, so the
 * absolute path is captured as a plain string (not a secret) when the provider is serialized.
 */
const OPERATIONS: string = join(__dirname, "incident-operations.js");

type Operations = typeof import("./incident-operations");

/**
 * `read` and `delete` run the provider stored in the state, whose captured path names the
 * checkout that last applied it. `INCIDENT_SYNC_OPERATIONS` (set by the harness to the
 * current checkout) wins, so a moved or re-cloned checkout still refreshes and destroys;
 * then the captured path; then the package by name, for programs that install it.
 */
const operations = (): Operations => {
  const { existsSync } = require("node:fs") as typeof import("node:fs");
  const found = [process.env.INCIDENT_SYNC_OPERATIONS, OPERATIONS].find(
    (file) => file !== undefined && existsSync(file),
  );
  return require(found ?? "incident-sync/dist/providers/incident-operations") as Operations;
};

/** Inputs of one status-page incident, mapped to `PUT /v1/status-pages/incidents/{incidentId}`. */
export interface IncidentArgs {
  /** Path identifier of the incident; changing it replaces the resource. */
  incidentId: pulumi.Input<string>;
  name: pulumi.Input<string>;
  severity: pulumi.Input<Severity>;
  status: pulumi.Input<IncidentStatus>;
  /** Affected services, at least one. */
  services: pulumi.Input<pulumi.Input<IncidentService>[]>;
  /** Passed to the API as is. */
  duration?: pulumi.Input<number | null>;
  /** `release` (default) leaves the incident as it is when the resource is deleted; `resolve` PUTs RESOLVED. */
  onRemove?: pulumi.Input<"release" | "resolve">;
  /** Allows moving a RESOLVED incident back to an open status. */
  reopen?: pulumi.Input<boolean>;
}

export type IncidentProvider = pulumi.dynamic.ResourceProvider<IncidentInputs, IncidentState> &
  ProviderSession;

/**
 * The provider is serialized into the state of every incident with its closure
 * (pulumi/pulumi#6490), so it is a small plain object of one-line methods that capture one
 * path string and `require()` the operations when called: no client, schema or key is in the
 * closure, and the state stays small (the engine rewrites it after every step). One object is
 * shared by all incidents, so Pulumi serializes it once per program run. The API key is read in
 * `configure()` from the stack's secret config into this object in the plugin process only.
 */
export const incidentProvider: IncidentProvider = {
  async configure(request) {
    await operations().configure(this, request);
  },
  async check(olds, news) {
    return operations().check(olds, news as unknown as Record<string, unknown>);
  },
  async diff(_id, olds, news) {
    return operations().diff(olds, news);
  },
  async create(inputs) {
    return operations().create(this, inputs);
  },
  async update(_id, _olds, news) {
    return operations().update(this, news);
  },
  async read(id, props) {
    return operations().read(this, id, props);
  },
  async delete(_id, props) {
    await operations().remove(this, props);
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
  declare readonly status: pulumi.Output<IncidentStatus>;
  declare readonly services: pulumi.Output<IncidentService[]>;
  declare readonly onRemove: pulumi.Output<"release" | "resolve">;
  declare readonly providerVersion: pulumi.Output<string>;
  declare readonly appliedAt: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: IncidentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      incidentProvider,
      name,
      {
        onRemove: "release",
        ...args,
        providerVersion: PROVIDER_VERSION,
        appliedAt: undefined,
        createdAt: undefined,
      },
      opts,
      "incident-sync",
      "Incident",
    );
  }
}
