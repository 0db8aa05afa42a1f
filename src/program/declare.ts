import { isAbsolute, relative } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Incident } from "../../providers/incident";
import type { IncidentStatus, IncidentUpdate, MonitoringClient } from "../api";
import type { LoadedDefinition } from "../definitions";
import {
  ADOPTIONS_AT_RISK_WARNING,
  adoptionsAtRisk,
  type ClaimPhase,
  type DeclaredEntry,
  type DriftedField,
  declarationOf,
  driftedFields,
  driftStateOf,
  type IncidentDeclaration,
  incidentLabel,
  liveStatusOf,
  newestFirst,
  type Observation,
  observe,
  publishedAt,
  STATE_TEXT_LIMIT,
  updateForState,
  updatesAfter,
  updatesCutForState,
} from "../incident";
import type { StackSettings } from "../settings";
import { type IncidentReads, type ReadIncident, readIncidents } from "./incident-reads";
import {
  type DriftEntry,
  heartbeatsSummary,
  type IncidentOutput,
  type LiveCount,
  type StackOutputs,
  summaryOf,
} from "./outputs";
import {
  type ErrorGroupsReadBack,
  type HeartbeatReadBack,
  type ReadBack,
  readBack,
  readErrorGroups,
  readHeartbeat,
  settle,
  type Unavailable,
} from "./read-backs";

/** One definition, its resource, and this run's read of the incident. */
export interface DeclaredIncident {
  readonly loaded: LoadedDefinition;
  readonly resource: Incident;
  /**
   * The incident as read before any apply in this run (a new one's, once the apply gave its
   * id); absent when not read.
   */
  readonly read: pulumi.Output<ReadBack<ReadIncident>> | undefined;
}

export interface DeclareOptions {
  /** The program's client (`programClient`). */
  client: pulumi.Output<MonitoringClient>;
  settings: Pick<StackSettings, "readBack" | "strictEvidence" | "outputs">;
  /** Where Pulumi.yaml is: file names in messages are relative to it. */
  projectDir: string;
  resourceOptions?: pulumi.CustomResourceOptions;
  /**
   * `claim`: the run records new incidents in the state and applies nothing, so it reads
   * nothing either and has no outputs (`src/incident/claim.ts`). @default the plain CLI's run
   */
  phase?: ClaimPhase | undefined;
}

/** The most candidates a new incident passes to its provider: the newest of its name. */
const CANDIDATES_MAX = 5;

/**
 * One `Incident` resource per definition, named by its `resource` (default: its id). The
 * incidents are read first, all at once (`readIncidents`: the service's list, then one read
 * for each it did not give), and each definition's read is passed to the provider as an
 * observation, so `preview` and `up` see what happened on the status page. A new incident
 * (no id) gets the reads of the incidents that may be it. With `readBack: open` only the
 * incidents declared open are read. A read that fails is a warning, not a failure.
 */
export function declareIncidents(
  definitions: readonly LoadedDefinition[],
  options: DeclareOptions,
): DeclaredIncident[] {
  if (adoptionsAtRisk()) pulumi.log.warn(ADOPTIONS_AT_RISK_WARNING);
  const wanted =
    options.phase === "claim" ? [] : definitions.filter((loaded) => isRead(loaded, options));
  const reads =
    wanted.length === 0
      ? undefined
      : readBack(options.client, (client) => readIncidents(client, wantedOf(wanted)));
  return withoutPromiseStacks(() =>
    definitions.map((loaded) =>
      declareOne(loaded, options, wanted.includes(loaded) ? reads : undefined),
    ),
  );
}

function isRead(loaded: LoadedDefinition, options: DeclareOptions): boolean {
  return options.settings.readBack === "all" || loaded.definition.status !== "RESOLVED";
}

function wantedOf(definitions: readonly LoadedDefinition[]) {
  const ids: string[] = [];
  const fresh: { resource: string; name: string; first: DeclaredEntry }[] = [];
  for (const { definition } of definitions) {
    const first = definition.updates?.[0];
    if (definition.id !== undefined) ids.push(definition.id);
    else if (first) fresh.push({ resource: definition.resource, name: definition.name, first });
  }
  return { ids, fresh };
}

/**
 * The Pulumi SDK records a stack trace on every promise it makes for a resource's properties
 * and outputs, only to name leaked promises in a debug report, and under the SDK's source-map
 * support each trace costs about 0.2 ms a promise (BENCHMARKS.md, "Scale"). Declaring resources
 * and outputs without frames in those traces removes the cost; errors thrown later keep theirs.
 */
function withoutPromiseStacks<T>(declare: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return declare();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** One definition's observation, resource and read. */
function declareOne(
  loaded: LoadedDefinition,
  options: DeclareOptions,
  reads: pulumi.Output<IncidentReads> | undefined,
): DeclaredIncident {
  const { definition } = loaded;
  const declaration = declarationOf(definition);
  const claim = options.phase === "claim";
  const id = definition.id;
  const known = id === undefined ? undefined : reads?.apply((all) => all.byId(id));
  const candidates =
    id === undefined
      ? reads?.apply((all) => candidatesInput(all.candidatesOf(definition.resource)))
      : undefined;
  const observed = known?.apply(observationOf);
  const resource = new Incident(
    definition.resource,
    {
      ...declaration,
      ...(observed ? { observed } : {}),
      ...(candidates ? { candidates } : {}),
      ...(claim ? { claimOnly: true } : {}),
    },
    withAliases(options.resourceOptions, definition.aliases),
  );
  const read =
    known ?? (reads && resourceRead(resource, reads, options.client, definition.resource));
  const opened = id === undefined ? resource.incidentId : pulumi.output(id);
  pulumi.all([read ?? notRead(), opened]).apply(([result, incidentId]) => {
    if (read === undefined) return;
    const label = incidentLabel(incidentId || undefined, definition.resource);
    for (const cut of result.ok ? updatesCutForState(result.value.updates) : []) {
      pulumi.log.warn(
        `${where(loaded, options.projectDir)}: update ${cut.id ?? "(no id)"} of incident ${label} has a description of ${cut.description.length} characters; the stack outputs keep its first ${STATE_TEXT_LIMIT}.`,
        resource,
      );
    }
    if (!result.ok && !result.missing && !result.skipped) {
      pulumi.log.warn(
        `${where(loaded, options.projectDir)}: could not read incident ${label}, so this run cannot see changes made on the status page (the live status is unknown): ${result.reason}`,
        resource,
      );
    }
  });
  return { loaded, resource, read };
}

/** A new incident's candidates as its provider takes them: the newest few, observed. */
function candidatesInput(candidates: readonly ReadIncident[]): Record<string, Observation> {
  const newest = [...candidates]
    .sort((a, b) => (Date.parse(b.created_at ?? "") || 0) - (Date.parse(a.created_at ?? "") || 0))
    .slice(0, CANDIDATES_MAX);
  return Object.fromEntries(
    newest.map((candidate) => [candidate.id, observationOf({ ok: true, value: candidate })]),
  );
}

/**
 * A new incident's read for the outputs, once its apply gave its id: among the candidates the
 * run read, else a read of its own. Before it exists, there is nothing to read.
 */
function resourceRead(
  resource: Incident,
  reads: pulumi.Output<IncidentReads>,
  client: pulumi.Output<MonitoringClient>,
  name: string,
): pulumi.Output<ReadBack<ReadIncident>> {
  return pulumi.unsecret(
    pulumi.all([resource.incidentId, reads, client]).apply(async ([incidentId, all, api]) => {
      if (!incidentId) return notCreated(name);
      const listed = all.candidatesOf(name).find((candidate) => candidate.id === incidentId);
      if (listed) return { ok: true as const, value: listed };
      return settle(async () => {
        const incident = await api.incidents.get(incidentId);
        return {
          id: incident.id,
          updates: incident.incidentUpdates,
          fields: incident,
          created_at: incident.created_at,
          updated_at: incident.updated_at,
        };
      });
    }),
  );
}

const notCreated = (resource: string): ReadBack<ReadIncident> => ({
  ok: false,
  missing: false,
  skipped: true,
  reason: `not opened yet: resource ${resource} opens it on its first up`,
});

/**
 * The definition's earlier resource names become Pulumi aliases, so a rename is the same
 * resource to the engine: no create, no delete, nothing sent.
 */
function withAliases(
  options: pulumi.CustomResourceOptions | undefined,
  aliases: readonly string[] | undefined,
): pulumi.CustomResourceOptions | undefined {
  if (aliases === undefined || aliases.length === 0) return options;
  return {
    ...options,
    aliases: [...(options?.aliases ?? []), ...aliases.map((name) => ({ name }))],
  };
}

function observationOf(result: ReadBack<ReadIncident>): Observation {
  if (!result.ok) {
    return result.missing ? { kind: "missing" } : { kind: "unavailable", reason: result.reason };
  }
  return observe(result.value.updates, result.value.fields);
}

function where(loaded: LoadedDefinition, projectDir: string): string {
  return `${shownFile(projectDir, loaded.file)}:${loaded.at.line}`;
}

/**
 * A definition's file as messages and outputs name it: relative to the project when it is a
 * file, as given when the definition was written in code (`incidents[2]`).
 */
function shownFile(projectDir: string, file: string): string {
  return isAbsolute(file) ? relative(projectDir, file) || file : file;
}

/** The stack outputs `incidentOutputs` declares: all but `accountId`, which the stack adds. */
export type IncidentOutputs = {
  [K in Exclude<keyof StackOutputs, "accountId">]?: pulumi.Output<NonNullable<StackOutputs[K]>>;
};

/**
 * The stack outputs. Incident updates and drift describe the status page as this run left it:
 * the updates read before the apply plus those the apply's PUT returned. Heartbeats and error
 * groups do not depend on the incidents and are read straight away. Pulumi prints every output
 * in full after every `up`, so `outputs: summary` exports counts instead of the per-incident
 * maps; both modes compute the same read-backs and differ only in what is exported.
 */
export function incidentOutputs(
  declared: readonly DeclaredIncident[],
  options: DeclareOptions,
): IncidentOutputs {
  if (options.phase === "claim") return {};
  return withoutPromiseStacks(() => outputsOf(declared, options));
}

function outputsOf(
  declared: readonly DeclaredIncident[],
  options: DeclareOptions,
): IncidentOutputs {
  const perIncident = declared.map(({ loaded, resource, read }) =>
    pulumi
      .all([
        resource.incidentId,
        resource.status,
        resource.appliedAt,
        resource.appliedUpdates,
        read ?? notRead(),
      ])
      .apply(([incidentId, status, appliedAt, appliedUpdates, result]) =>
        incidentReadBack(
          loaded.definition,
          shownFile(options.projectDir, loaded.file),
          { incidentId, status, appliedAt, appliedUpdates: appliedUpdates ?? [] },
          result,
        ),
      ),
  );
  const all = pulumi.all(perIncident);
  const heartbeats = evidenceReads(declared, "heartbeats", options, (client, id, now) =>
    readHeartbeat(client, id, now),
  );
  const errorGroups = evidenceReads(declared, "checks", options, (client, id) =>
    readErrorGroups(client, id),
  );
  const mode = options.settings.outputs;
  const outputs = {
    summary: all.apply((list) => summaryOf(list, mode)),
    drift: all.apply((list) => list.flatMap((item) => (item.drift ? [item.drift] : []))),
    errorGroups,
  };
  if (mode === "summary") return { ...outputs, heartbeats: heartbeats.apply(heartbeatsSummary) };
  return {
    ...outputs,
    heartbeats,
    incidents: all.apply((list) => Object.fromEntries(list.map((item) => [item.id, item.output]))),
    incidentUpdates: all.apply((list) =>
      Object.fromEntries(list.map((item) => [item.id, item.updates])),
    ),
  };
}

/** What the last apply left, from the incident's resource outputs. */
export interface AppliedReadBack {
  /** The incident's id (a new incident's, once opened; empty before). */
  incidentId: string;
  status: IncidentStatus;
  appliedAt: string;
  /** Updates the apply made that the read before it had not seen. */
  appliedUpdates: IncidentUpdate[];
}

/**
 * One incident's outputs from this run's read of it and what the last apply left: the status
 * page as this run left it, by the one live-status rule, and the declared fields it shows
 * otherwise.
 */
export function incidentReadBack(
  definition: LoadedDefinition["definition"],
  file: string,
  applied: AppliedReadBack,
  result: ReadBack<ReadIncident>,
): {
  id: string;
  output: IncidentOutput;
  updates: IncidentUpdate[] | Unavailable;
  drift: DriftEntry | undefined;
  /** The live status as the `summary` output counts it. */
  live: LiveCount;
} {
  const id = incidentLabel(applied.incidentId || definition.id, definition.resource);
  const updates = result.ok ? merge(result.value.updates, applied.appliedUpdates) : undefined;
  const live = updates
    ? liveStatusOf(updates, { status: applied.status, at: applied.appliedAt })
    : undefined;
  const declaration = declarationOf(definition);
  // A read older than this run's apply is no word on the fields: the apply checked them.
  const fields =
    result.ok && !readBeforeApply(result.value, applied) ? result.value.fields : undefined;
  const output: IncidentOutput = {
    file,
    resource: definition.resource,
    declared: {
      name: definition.name,
      severity: definition.severity,
      status: definition.status,
      services: declaration.services,
    },
    applied: { status: applied.status, at: applied.appliedAt },
    live: live
      ? {
          status: live.status,
          source: live.source,
          since: live.update ? new Date(publishedAt(live.update)).toISOString() : null,
        }
      : { unavailable: result.ok ? "not read" : result.reason },
  };
  const drifted = fields ? fieldDrift(declaration, fields) : [];
  const drift = driftOf(
    { id, file, declaredStatus: definition.status, appliedAt: applied.appliedAt },
    live?.status,
    updates,
    result,
    drifted,
  );
  return {
    id,
    output,
    updates: updates ?? { unavailable: result.ok ? "not read" : result.reason },
    drift,
    live: result.ok ? (live?.status ?? "unknown") : result.skipped ? "notRead" : "unknown",
  };
}

/**
 * Whether the read shows nothing changed after the apply: the service's time of its last
 * change (its creation, when it was never changed) is not after the apply's, which is the
 * service's time too.
 */
function readBeforeApply(read: ReadIncident, applied: AppliedReadBack): boolean {
  const changed = Date.parse(read.updated_at ?? read.created_at ?? "");
  const appliedAt = Date.parse(applied.appliedAt);
  return Number.isFinite(changed) && Number.isFinite(appliedAt) && changed <= appliedAt;
}

/** The declared fields the status page shows otherwise, with both values. */
function fieldDrift(
  declaration: IncidentDeclaration,
  live: NonNullable<ReadIncident["fields"]>,
): NonNullable<DriftEntry["fields"]> {
  const shown = (
    field: DriftedField,
    from: { name: string; severity: string; services: readonly { id: string }[] },
  ) =>
    field === "services"
      ? from.services
          .map((service) => service.id)
          .sort()
          .join(", ")
      : from[field];
  return driftedFields(declaration, live).map((field) => ({
    field,
    declared: shown(field, declaration),
    live: shown(field, live),
  }));
}

const notRead = (): ReadBack<ReadIncident> => ({
  ok: false,
  missing: false,
  skipped: true,
  reason: "not read (readBack: open reads only incidents declared open)",
});

/** The updates read before the apply and those it made, newest first, at most 100. */
function merge(
  read: readonly IncidentUpdate[],
  applied: readonly IncidentUpdate[],
): IncidentUpdate[] {
  const seen = new Set(read.flatMap((update) => (update.id ? [update.id] : [])));
  const added = applied.filter((update) => !update.id || !seen.has(update.id));
  return newestFirst([...added, ...read])
    .slice(0, 100)
    .map(updateForState);
}

function driftOf(
  incident: Pick<DriftEntry, "file" | "declaredStatus" | "appliedAt"> & { id: string },
  liveStatus: IncidentStatus | null | undefined,
  updates: IncidentUpdate[] | undefined,
  result: ReadBack<ReadIncident>,
  fields: NonNullable<DriftEntry["fields"]>,
): DriftEntry | undefined {
  const { id: incidentId, ...rest } = incident;
  if (!updates) {
    // `readBack: open` skips resolved incidents on purpose, and a new incident before its
    // first up has nothing to read: neither is an unknown.
    if (result.ok === false && result.skipped) return undefined;
    return {
      incidentId,
      ...rest,
      liveStatus: "unknown",
      updatesOutsideGit: [],
      reason: result.ok ? "not read" : result.reason,
    };
  }
  // Updates posted on the status page that keep the declared status are ordinary activity,
  // not drift.
  const inSync = driftStateOf(liveStatus, incident.declaredStatus) === "in-sync";
  if (inSync && fields.length === 0) return undefined;
  const outside = updatesAfter(updates, incident.appliedAt);
  return {
    incidentId,
    ...rest,
    liveStatus: liveStatus ?? "unknown",
    updatesOutsideGit: outside.map((update) => ({
      id: update.id ?? null,
      at: new Date(publishedAt(update)).toISOString(),
      status: update.status ?? null,
      description: update.description,
    })),
    ...(fields.length > 0 ? { fields } : {}),
  };
}

/**
 * Reads every heartbeat or check named as evidence, once each. An id that does not exist is
 * a warning naming the definitions that list it (an error with `strictEvidence: true`); any
 * other failure leaves that entry unavailable.
 */
function evidenceReads<T>(
  declared: readonly DeclaredIncident[],
  kind: "heartbeats" | "checks",
  options: DeclareOptions,
  read: (client: MonitoringClient, id: string, now: Date) => Promise<T>,
): pulumi.Output<Record<string, T | Unavailable>> {
  const listedBy = new Map<string, LoadedDefinition[]>();
  for (const { loaded } of declared) {
    for (const id of loaded.definition.evidence?.[kind] ?? []) {
      listedBy.set(id, [...(listedBy.get(id) ?? []), loaded]);
    }
  }
  const ids = [...listedBy.keys()].sort();
  const now = new Date();
  const noun = kind === "heartbeats" ? "heartbeat" : "check";
  return readBack<Record<string, T | Unavailable>>(options.client, async (client) => {
    const results = await Promise.all(ids.map((id) => settle(() => read(client, id, now))));
    return Object.fromEntries(
      results.map((result, index) => {
        const id = ids[index] ?? "";
        if (result.ok) return [id, result.value];
        if (result.missing) {
          const places = (listedBy.get(id) ?? [])
            .map(
              (loaded) => `${where(loaded, options.projectDir)} (incident ${loaded.definition.id})`,
            )
            .join(", ");
          const message = `evidence ${noun} "${id}" does not exist in the account; it is listed at ${places}. Fix the id in evidence.${kind}, or remove it.`;
          // strictEvidence: the run fails, with this message and no stack trace.
          if (options.settings.strictEvidence) throw new pulumi.RunError(message);
          pulumi.log.warn(message);
          return [id, { unavailable: `${noun} ${id} does not exist` }];
        }
        pulumi.log.warn(`could not read evidence ${noun} "${id}": ${result.reason}`);
        return [id, { unavailable: result.reason }];
      }),
    );
  });
}

export type { ErrorGroupsReadBack, HeartbeatReadBack };
