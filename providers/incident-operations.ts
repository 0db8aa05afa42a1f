import type * as pulumi from "@pulumi/pulumi";
import {
  createClient,
  type IncidentRequest,
  type IncidentStatus,
  type MonitoringClient,
  NotFoundError,
  type Severity,
} from "../src/api";
import { IncidentDefinition } from "../src/definitions/schema";
import { clientOptionsOf, type StackConnection } from "../src/program/client-options";
import { liveStatusOf, updatesAfter } from "../src/program/live-status";

/*
 * The operations of the incident provider. This module is loaded by path inside the engine's
 * plugin process (see `incident.ts`), never serialized into the state, so it imports what it
 * needs like any module.
 */

/** A service as applied: id, and a name when the definition gives one. */
export interface IncidentService {
  id: string;
  name?: string;
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

/** What one provider instance keeps in the plugin process: never serialized, never in state. */
export interface ProviderSession {
  /** Where and how the provider calls the API; set by `configure` from the stack config. */
  connection?: StackConnection;
  /** The client of this plugin process, made on first use after `configure`. */
  api?: MonitoringClient;
}

/** The part of Pulumi's configure request the provider reads. */
export interface ConfigureRequest {
  config: { get(key: string): string | undefined; require(key: string): string };
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

export async function configure(
  session: ProviderSession,
  request: ConfigureRequest,
): Promise<void> {
  const number = (key: string): number | undefined => {
    const value = request.config.get(`incident-sync:${key}`);
    return value === undefined || value === "" ? undefined : Number(value);
  };
  const retries = number("retries");
  const rateLimit = number("rateLimit");
  const concurrency = number("concurrency");
  session.connection = {
    baseUrl: request.config.require("incident-sync:baseUrl"),
    accountId: request.config.require("incident-sync:accountId"),
    apiKey: request.config.require("incident-sync:apiKey"),
    ...(retries === undefined ? {} : { retries }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(concurrency === undefined ? {} : { concurrency }),
  };
}

export async function check(
  olds: Partial<IncidentInputs>,
  news: Record<string, unknown>,
): Promise<pulumi.dynamic.CheckResult<IncidentInputs>> {
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
  // Reopening a resolved incident notifies subscribers again: it has to be meant.
  if (
    olds.status === "RESOLVED" &&
    definition.status !== "RESOLVED" &&
    definition.reopen !== true
  ) {
    return {
      failures: [
        {
          property: "status",
          reason: `incident ${definition.id} is RESOLVED; moving it to ${definition.status} reopens it: add \`reopen: true\` to its definition`,
        },
      ],
    };
  }
  const inputs: IncidentInputs = {
    ...incidentInputsOf(definition),
    providerVersion: String(news.providerVersion ?? ""),
  };
  return { inputs };
}

/**
 * The resource inputs a definition declares: the one mapping used by the program to declare
 * resources and by `check` to normalize what it receives.
 */
export function incidentInputsOf(
  definition: IncidentDefinition,
): Omit<IncidentInputs, "providerVersion"> {
  return {
    incidentId: definition.id,
    name: definition.name,
    severity: definition.severity,
    status: definition.status,
    services: definition.services.map((service) =>
      service.name === undefined ? { id: service.id } : { id: service.id, name: service.name },
    ),
    onRemove: definition.onRemove,
    ...(definition.duration === undefined ? {} : { duration: definition.duration }),
    ...(definition.reopen === undefined ? {} : { reopen: definition.reopen }),
  };
}

/** Field by field and without a network call: what changes is what the engine shows. */
export async function diff(
  olds: IncidentInputs,
  news: IncidentInputs,
): Promise<pulumi.dynamic.DiffResult> {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const replaces = olds.incidentId === news.incidentId ? [] : ["incidentId"];
  const changed = DIFFED_FIELDS.filter((field) => !same(olds[field], news[field]));
  // The engine shows the changed fields itself, from the old and new inputs; `stables` tells
  // it which outputs an update keeps, so a preview knows them.
  const stables = [
    ...(replaces.length > 0 ? [] : ["incidentId"]),
    ...DIFFED_FIELDS.filter((field) => !changed.includes(field)),
  ];
  return {
    changes: replaces.length > 0 || changed.length > 0,
    replaces,
    stables,
    // Two resources never manage one incident: the old one lets go before the new one adopts.
    deleteBeforeReplace: replaces.length > 0,
  };
}

/** The API has no create: the declared incident must exist, and create adopts it. */
export async function create(
  session: ProviderSession,
  inputs: IncidentInputs,
): Promise<pulumi.dynamic.CreateResult<IncidentState>> {
  return { id: inputs.incidentId, outs: await put(session, inputs, inputs.status) };
}

export async function update(
  session: ProviderSession,
  news: IncidentInputs,
): Promise<pulumi.dynamic.UpdateResult<IncidentState>> {
  return { outs: await put(session, news, news.status) };
}

/**
 * The API has no GET for an incident, so the live status is the newest update with a status
 * posted after the last apply; without one, the status is what the last PUT set.
 */
export async function read(
  session: ProviderSession,
  id: string,
  props: IncidentState | undefined,
): Promise<pulumi.dynamic.ReadResult<IncidentState>> {
  if (!props) return { id };
  const updates = await client(session).incidents.listUpdates(id);
  const status = liveStatusOf(updatesAfter(updates, props.appliedAt), props.status);
  const state: IncidentState = { ...props, status };
  return { id, props: state };
}

export async function remove(session: ProviderSession, props: IncidentState): Promise<void> {
  if (props.onRemove === "resolve") await put(session, props, "RESOLVED");
}

// One client per plugin process, shared by every resource: one rate limit and one
// concurrency cap, and no per-resource setup.
export function client(session: ProviderSession): MonitoringClient {
  if (session.api) return session.api;
  const connection = session.connection;
  if (!connection) {
    throw new Error(
      "The incident provider has no connection: set incident-sync:baseUrl, incident-sync:accountId and the secret incident-sync:apiKey in the stack config.",
    );
  }
  session.api = createClient(clientOptionsOf(connection));
  return session.api;
}

export async function put(
  session: ProviderSession,
  inputs: IncidentInputs,
  status: IncidentStatus,
): Promise<IncidentState> {
  const request: IncidentRequest = {
    name: inputs.name,
    severity: inputs.severity,
    services: inputs.services,
    lastUpdateStatus: status,
  };
  if (inputs.duration !== undefined) request.duration = inputs.duration;
  try {
    const incident = await client(session).incidents.update(inputs.incidentId, request);
    return {
      ...inputs,
      appliedAt: incident.updated_at ?? new Date().toISOString(),
      createdAt: incident.created_at ?? null,
    };
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new Error(
        `Incident "${inputs.incidentId}" does not exist in account "${session.connection?.accountId}". The API cannot create incidents: create it on the status page first, or fix the id in its definition.`,
      );
    }
    throw error;
  }
}
