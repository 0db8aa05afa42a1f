import * as pulumi from "@pulumi/pulumi";
import type { IncidentUpdate, MonitoringClient } from "../api";
import type { LoadedDefinition } from "../definitions";
import {
  type AppliedReadBack,
  type DriftEntry,
  declarationOf,
  driftEntry,
  hasDrifted,
  incidentLabel,
  incidentNamed,
  liveOutput,
  statusPageAfterApply,
  unreadDrift,
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
 * The stack outputs: the status page as this run left it (the reads plus what the apply made),
 * and the evidence; `outputs: summary` exports counts instead of the per-incident maps.
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
  const names = checkNamesOnce(declared);
  const heartbeats = evidenceReads(declared, "heartbeats", options, names, (client, id, now) =>
    readHeartbeat(client, id, now),
  );
  const errorGroups = evidenceReads(declared, "checks", options, names, (client, id) =>
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

/**
 * One incident's outputs from this run's read of it and what the last apply left: the status
 * page as this run left it, and its drift (`statusPageAfterApply`, the one drift model).
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
  const declaration = declarationOf(definition);
  const seen = result.ok ? statusPageAfterApply(declaration, applied, result.value) : undefined;
  const unavailable = { unavailable: result.ok ? "not read" : result.reason };
  // `readBack: open` skips resolved incidents on purpose, and a new incident before its first
  // up has nothing to read: neither is an unknown.
  const drift =
    seen?.drift ??
    (result.ok || result.skipped
      ? undefined
      : unreadDrift(definition.status, { missing: result.missing, reason: result.reason }));
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
    live: seen ? liveOutput(seen.live) : unavailable,
  };
  return {
    id,
    output,
    updates: seen?.updates ?? unavailable,
    drift:
      drift && hasDrifted(drift)
        ? driftEntry({ incidentId: id, file, appliedAt: applied.appliedAt }, drift)
        : undefined,
    live: seen
      ? (seen.live.status ?? "unknown")
      : result.ok === false && result.skipped
        ? "notRead"
        : "unknown",
  };
}

/**
 * The names of every heartbeat and check named as evidence, read once per run through the
 * checks list (`checks.namesOf`) by whichever read asks first; a list that cannot be read
 * names none, and the read-backs show the ids.
 */
function checkNamesOnce(
  declared: readonly DeclaredIncident[],
): (client: MonitoringClient) => Promise<Readonly<Record<string, string>>> {
  const ids = [
    ...new Set(
      declared.flatMap(({ loaded }) => [
        ...(loaded.definition.evidence?.heartbeats ?? []),
        ...(loaded.definition.evidence?.checks ?? []),
      ]),
    ),
  ];
  let read: Promise<Readonly<Record<string, string>>> | undefined;
  return (client) => {
    read ??= client.checks.namesOf(ids).catch(() => ({}));
    return read;
  };
}

/**
 * Reads every heartbeat or check named as evidence, once each. An id that does not exist (a
 * 404, or an answer that says so another way: `heartbeatAbsence`, `checkAbsence`) is a
 * warning naming the definitions that list it (an error with `strictEvidence: true`); any
 * other failure leaves that entry unavailable.
 */
function evidenceReads<T extends object>(
  declared: readonly DeclaredIncident[],
  kind: "heartbeats" | "checks",
  options: DeclareOptions,
  names: (client: MonitoringClient) => Promise<Readonly<Record<string, string>>>,
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
      .map((loaded) => {
        const { name, resource, id: incidentId } = loaded.definition;
        return `${where(loaded, options.projectDir)} (incident ${incidentNamed({ name, resource, incidentId })})`;
      })
      .join(", ");
  const missing = (message: string) => {
    // strictEvidence: the run fails, with this message and no stack trace.
    if (options.settings.strictEvidence) throw new pulumi.RunError(message);
    pulumi.log.warn(message);
  };
  return readBack<Record<string, T | Unavailable>>(options.client, async (client) => {
    if (ids.length === 0) return {};
    const [named, results] = await Promise.all([
      names(client),
      Promise.all(ids.map((id) => settle(() => read(client, id, now)))),
    ]);
    return Object.fromEntries(
      results.map((result, index) => {
        const id = ids[index] ?? "";
        if (result.ok) {
          const { absent } = result.value;
          const value = Object.hasOwn(named, id)
            ? { name: named[id], ...result.value.value }
            : result.value.value;
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
        const shown = Object.hasOwn(named, id) ? `"${named[id]}" (${id})` : `"${id}"`;
        pulumi.log.warn(`could not read evidence ${noun} ${shown}: ${result.reason}`);
        return [id, { unavailable: result.reason }];
      }),
    );
  });
}
