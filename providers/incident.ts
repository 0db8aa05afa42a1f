import * as pulumi from "@pulumi/pulumi";

/**
 * Inputs of one status-page incident, mapped to
 * `PUT /v1/status-pages/incidents/{incidentId}`.
 */
export interface IncidentArgs {
  /** Path identifier of the incident; changing it replaces the resource. */
  incidentId: pulumi.Input<string>;
  name: pulumi.Input<string>;
  severity: pulumi.Input<"CRITICAL" | "MAJOR" | "MEDIUM" | "MINOR">;
  /** Identifiers of the affected services (at least one). */
  serviceIds: pulumi.Input<pulumi.Input<string>[]>;
  status?: pulumi.Input<"INVESTIGATING" | "IDENTIFIED" | "MONITORING" | "RESOLVED">;
}

interface IncidentInputs {
  incidentId: string;
  name: string;
  severity: string;
  serviceIds: string[];
  status?: string;
}

interface Connection {
  baseUrl: string;
  accountId: string;
  apiKey: string;
}

interface IncidentProvider extends pulumi.dynamic.ResourceProvider {
  connection?: Connection;
  put(inputs: IncidentInputs, status: string | undefined): Promise<Record<string, unknown>>;
}

/**
 * The provider is serialized with its closure, so it stays a small plain object: the API key
 * is read in `configure()` from the stack's secret config and kept on the deserialized
 * provider, never captured at module scope or stored in state.
 */
const incidentProvider: IncidentProvider = {
  async configure(request) {
    this.connection = {
      baseUrl: request.config.require("incident-sync:baseUrl").replace(/\/+$/, ""),
      accountId: request.config.require("incident-sync:accountId"),
      apiKey: request.config.require("incident-sync:apiKey"),
    };
  },

  async diff(_id, olds: IncidentInputs, news: IncidentInputs) {
    const replaces = olds.incidentId === news.incidentId ? [] : ["incidentId"];
    const changed = (["name", "severity", "status"] as const).some(
      (key) => olds[key] !== news[key],
    );
    const servicesChanged = olds.serviceIds.join("\n") !== news.serviceIds.join("\n");
    return {
      changes: replaces.length > 0 || changed || servicesChanged,
      replaces,
      deleteBeforeReplace: false,
    };
  },

  async create(inputs: IncidentInputs) {
    const outs = await this.put(inputs, inputs.status);
    return { id: inputs.incidentId, outs };
  },

  async update(_id, _olds: IncidentInputs, news: IncidentInputs) {
    return { outs: await this.put(news, news.status) };
  },

  async read(id, props: IncidentInputs & Record<string, unknown>) {
    return { id, props };
  },

  // The API has no delete: removing an incident from the definitions resolves it.
  async delete(_id, props: IncidentInputs) {
    await this.put(props, "RESOLVED");
  },

  async put(inputs: IncidentInputs, status: string | undefined) {
    const connection = this.connection;
    if (!connection) throw new Error("The incident provider was used before configure().");
    const url = `${connection.baseUrl}/v1/status-pages/incidents/${encodeURIComponent(inputs.incidentId)}`;
    const response = await fetch(url, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${connection.apiKey}`,
        "content-type": "application/json",
        "x-service-account": connection.accountId,
      },
      body: JSON.stringify({
        name: inputs.name,
        severity: inputs.severity,
        services: inputs.serviceIds.map((id) => ({ id })),
        ...(status ? { lastUpdateStatus: status } : {}),
      }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`PUT ${url} failed with ${response.status}: ${text.slice(0, 500)}`);
    }
    const body = JSON.parse(text) as { lastUpdateStatus?: string; created_at?: string };
    return {
      ...inputs,
      lastUpdateStatus: body.lastUpdateStatus ?? status ?? "INVESTIGATING",
      createdAt: body.created_at ?? null,
    };
  },
};

/** One status-page incident, kept in step with its definition by the Pulumi engine. */
export class Incident extends pulumi.dynamic.Resource {
  declare readonly incidentId: pulumi.Output<string>;
  declare readonly lastUpdateStatus: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: IncidentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      incidentProvider,
      name,
      { lastUpdateStatus: undefined, createdAt: undefined, ...args },
      opts,
      "incident-sync",
      "Incident",
    );
  }
}
