import * as pulumi from "@pulumi/pulumi";
import type { IncidentStatus, IncidentUpdate, MonitoringClient } from "../api";
import type { LoadedDefinition } from "../definitions";
import {
  type DriftedField,
  declarationOf,
  driftedFields,
  driftStateOf,
  type IncidentDeclaration,
  incidentLabel,
  liveStatusOf,
  newestFirst,
  publishedAt,
  updateForState,
  updatesAfter,
} from "../incident";
import {
  type DeclaredIncident,
  type DeclareOptions,
  notRead,
  shownFile,
  where,
  withoutPromiseStacks,
} from "./declare";
import type { ReadIncident } from "./incident-reads";
import {
  type DriftEntry,
  heartbeatsSummary,
  type IncidentOutput,
  type LiveCount,
  type StackOutputs,
  summaryOf,
} from "./outputs";
import {
  type EvidenceRead,
  type ReadBack,
  readBack,
  readErrorGroups,
  readHeartbeat,
  settle,
  type Unavailable,
} from "./read-backs";

/*
 * The stack outputs of the incidents a run declared: what git declares, what the apply left,
 * what the status page shows, the drift between them, and the evidence the definitions list.
 */

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
 * Reads every heartbeat or check named as evidence, once each. An id that does not exist (a
 * 404, or an answer that says so another way: `heartbeatAbsence`, `checkAbsence`) is a
 * warning naming the definitions that list it (an error with `strictEvidence: true`); any
 * other failure leaves that entry unavailable.
 */
function evidenceReads<T>(
  declared: readonly DeclaredIncident[],
  kind: "heartbeats" | "checks",
  options: DeclareOptions,
  read: (client: MonitoringClient, id: string, now: Date) => Promise<EvidenceRead<T>>,
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
  const places = (id: string) =>
    (listedBy.get(id) ?? [])
      .map((loaded) => `${where(loaded, options.projectDir)} (incident ${loaded.definition.id})`)
      .join(", ");
  const missing = (message: string) => {
    // strictEvidence: the run fails, with this message and no stack trace.
    if (options.settings.strictEvidence) throw new pulumi.RunError(message);
    pulumi.log.warn(message);
  };
  return readBack<Record<string, T | Unavailable>>(options.client, async (client) => {
    const results = await Promise.all(ids.map((id) => settle(() => read(client, id, now))));
    return Object.fromEntries(
      results.map((result, index) => {
        const id = ids[index] ?? "";
        if (result.ok) {
          const { value, absent } = result.value;
          if (absent === undefined) return [id, value];
          missing(
            `evidence ${noun} "${id}" may not exist in the account: ${absent}; it is listed at ${places(id)}. Fix the id in evidence.${kind}, or remove it.`,
          );
          return [
            id,
            kind === "heartbeats" ? { unavailable: `${noun} ${id} may not exist` } : value,
          ];
        }
        if (result.missing) {
          missing(
            `evidence ${noun} "${id}" does not exist in the account; it is listed at ${places(id)}. Fix the id in evidence.${kind}, or remove it.`,
          );
          return [id, { unavailable: `${noun} ${id} does not exist` }];
        }
        pulumi.log.warn(`could not read evidence ${noun} "${id}": ${result.reason}`);
        return [id, { unavailable: result.reason }];
      }),
    );
  });
}
