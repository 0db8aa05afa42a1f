import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { IncidentRequest, IncidentStatus, IncidentUpdate, Severity } from "../src/api";

/**
 * Compiled module directories the provider `require()`s inside its methods. The provider runs
 * in the engine's `pulumi-resource-pulumi-nodejs` process, which cannot resolve this package
 * by name, so the absolute paths are captured as plain strings (not secrets) when the provider
 * is serialized. Loading modules inside methods keeps clients, schemas and keys out of the
 * serialized closure.
 */
const API_MODULE: string = join(__dirname, "..", "src", "api");
const SCHEMA_MODULE: string = join(__dirname, "..", "src", "definitions", "schema");

/** A service as applied: id, and a name when the definition gives one. */
export interface IncidentService {
  id: string;
  name?: string;
}

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

/** Inputs as the provider receives them (after `check`). */
export interface IncidentInputs {
  incidentId: string;
  name: string;
  severity: Severity;
  status: IncidentStatus;
  services: IncidentService[];
  duration?: number | null;
  onRemove: "release" | "resolve";
  reopen?: boolean;
  providerVersion: string;
}

/** State of an applied incident: the inputs plus what the server said. */
export interface IncidentState extends IncidentInputs {
  /** Server time of the last PUT (`updated_at`), else the provider's clock. */
  appliedAt: string;
  createdAt: string | null;
}

interface Connection {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  retries?: number;
  rateLimit?: number;
  concurrency?: number;
}

export interface IncidentProvider
  extends pulumi.dynamic.ResourceProvider<IncidentInputs, IncidentState> {
  connection?: Connection;
  client(): import("../src/api").MonitoringClient;
  put(inputs: IncidentInputs, status: IncidentStatus): Promise<IncidentState>;
}

/** Fields whose change is an update (a PUT); `incidentId` replaces. */
const DIFFED_FIELDS = [
  "name",
  "severity",
  "status",
  "services",
  "duration",
  "onRemove",
  "reopen",
  "providerVersion",
] as const;

/**
 * The provider is serialized into the state with its closure (pulumi/pulumi#6490), so it is a
 * small plain object: it captures two path strings and nothing else. The API key is read in
 * `configure()` from the stack's secret config and lives only on the deserialized provider in
 * the plugin process; it is never in the serialized provider or in the state.
 */
export const incidentProvider: IncidentProvider = {
  async configure(request) {
    const number = (key: string): number | undefined => {
      const value = request.config.get(`incident-sync:${key}`);
      return value === undefined || value === "" ? undefined : Number(value);
    };
    const retries = number("retries");
    const rateLimit = number("rateLimit");
    const concurrency = number("concurrency");
    this.connection = {
      baseUrl: request.config.require("incident-sync:baseUrl"),
      accountId: request.config.require("incident-sync:accountId"),
      apiKey: request.config.require("incident-sync:apiKey"),
      ...(retries === undefined ? {} : { retries }),
      ...(rateLimit === undefined ? {} : { rateLimit }),
      ...(concurrency === undefined ? {} : { concurrency }),
    };
  },

  async check(_olds, news) {
    const { IncidentDefinition } = require(
      SCHEMA_MODULE,
    ) as typeof import("../src/definitions/schema");
    const candidate: Record<string, unknown> = {
      id: news.incidentId,
      name: news.name,
      severity: news.severity,
      status: news.status,
      services: news.services,
      onRemove: news.onRemove ?? "release",
    };
    if (news.duration !== undefined) candidate.duration = news.duration;
    if (news.reopen !== undefined) candidate.reopen = news.reopen;
    const parsed = IncidentDefinition.safeParse(candidate);
    if (!parsed.success) {
      return {
        failures: parsed.error.issues.map((issue) => {
          const [first, ...rest] = issue.path.map(String);
          const property = first === "id" ? "incidentId" : (first ?? "incidentId");
          const where = rest.length > 0 ? ` (at ${rest.join(".")})` : "";
          return { property, reason: `${issue.message}${where}` };
        }),
      };
    }
    const definition = parsed.data;
    const inputs: IncidentInputs = {
      incidentId: definition.id,
      name: definition.name,
      severity: definition.severity,
      status: definition.status,
      services: definition.services.map((service) =>
        service.name === undefined ? { id: service.id } : { id: service.id, name: service.name },
      ),
      onRemove: definition.onRemove,
      providerVersion: String(news.providerVersion ?? ""),
    };
    if (definition.duration !== undefined) inputs.duration = definition.duration;
    if (definition.reopen !== undefined) inputs.reopen = definition.reopen;
    return { inputs };
  },

  // Field by field and without a network call: what changes is what the engine shows.
  async diff(_id, olds, news) {
    const same = (a: unknown, b: unknown) =>
      JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    const replaces = olds.incidentId === news.incidentId ? [] : ["incidentId"];
    const changed = DIFFED_FIELDS.filter((field) => !same(olds[field], news[field]));
    const detailedDiff: Record<string, { kind: "update" | "updateReplace"; inputDiff: boolean }> =
      {};
    for (const field of changed) detailedDiff[field] = { kind: "update", inputDiff: true };
    for (const field of replaces) detailedDiff[field] = { kind: "updateReplace", inputDiff: true };
    return {
      changes: replaces.length > 0 || changed.length > 0,
      replaces,
      // Two resources never manage one incident: the old one lets go before the new one adopts.
      deleteBeforeReplace: replaces.length > 0,
      detailedDiff,
    };
  },

  // The API has no create: the declared incident must exist, and create adopts it.
  async create(inputs) {
    return { id: inputs.incidentId, outs: await this.put(inputs, inputs.status) };
  },

  async update(_id, _olds, news) {
    return { outs: await this.put(news, news.status) };
  },

  /**
   * The API has no GET for an incident, so the live status is the newest update with a status
   * posted after the last apply; without one, the status is what the last PUT set.
   */
  async read(id, props) {
    if (!props) return { id };
    const updates = await this.client().incidents.listUpdates(id);
    const time = (update: IncidentUpdate) =>
      Date.parse(update.publicIncidentUpdateDate ?? update.created_at ?? "") || 0;
    const appliedAt = Date.parse(props.appliedAt) || 0;
    const newest = updates
      .filter((update) => update.status !== undefined && time(update) > appliedAt)
      .sort((a, b) => time(b) - time(a))[0];
    const state: IncidentState = { ...props, status: newest?.status ?? props.status };
    return { id, props: state };
  },

  async delete(_id, props) {
    if (props.onRemove === "resolve") await this.put(props, "RESOLVED");
  },

  client() {
    const connection = this.connection;
    if (!connection) {
      throw new Error(
        "The incident provider has no connection: set incident-sync:baseUrl, incident-sync:accountId and the secret incident-sync:apiKey in the stack config.",
      );
    }
    const { createClient } = require(API_MODULE) as typeof import("../src/api");
    return createClient({
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey,
      accountId: connection.accountId,
      ...(connection.retries === undefined ? {} : { retry: { limit: connection.retries } }),
      ...(connection.rateLimit === undefined
        ? {}
        : { rateLimit: { limit: connection.rateLimit, intervalMs: 60_000 } }),
      ...(connection.concurrency === undefined ? {} : { concurrency: connection.concurrency }),
    });
  },

  async put(inputs, status) {
    const { NotFoundError } = require(API_MODULE) as typeof import("../src/api");
    const request: IncidentRequest = {
      name: inputs.name,
      severity: inputs.severity,
      services: inputs.services,
      lastUpdateStatus: status,
    };
    if (inputs.duration !== undefined) request.duration = inputs.duration;
    try {
      const incident = await this.client().incidents.update(inputs.incidentId, request);
      return {
        ...inputs,
        appliedAt: incident.updated_at ?? new Date().toISOString(),
        createdAt: incident.created_at ?? null,
      };
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new Error(
          `Incident "${inputs.incidentId}" does not exist in account "${this.connection?.accountId}". The API cannot create incidents: create it on the status page first, or fix the id in its definition.`,
        );
      }
      throw error;
    }
  },
};

/** Version of this package, an input of every incident so a new provider release is applied. */
export const PROVIDER_VERSION: string = packageVersion();

function packageVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "incident-sync" && manifest.version) return manifest.version;
    }
    if (dirname(dir) === dir) return "0.0.0";
  }
}

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
