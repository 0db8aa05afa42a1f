import { isAbsolute, relative } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Incident } from "../../providers/incident";
import type { IncidentStatus, IncidentUpdate, MonitoringClient } from "../api";
import type { LoadedDefinition } from "../definitions";
import {
  ADOPTIONS_AT_RISK_WARNING,
  adoptionsAtRisk,
  type ClaimPhase,
  declarationOf,
  driftStateOf,
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
  readIncidentUpdates,
  settle,
  type Unavailable,
} from "./read-backs";

/** One definition, its resource, and this run's read of the incident's updates. */
export interface DeclaredIncident {
  readonly loaded: LoadedDefinition;
  readonly resource: Incident;
  /** The incident's updates as read before any apply in this run; absent when not read. */
  readonly read: pulumi.Output<ReadBack<IncidentUpdate[]>> | undefined;
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

/**
 * One `Incident` resource per definition, named by its `resource` (default: its id). Each
 * incident's updates are read first (all of them, or with `readBack: open` only those of
 * incidents declared open) and passed to the provider as an observation, so `preview` and
 * `up` see what happened on the status page. A read that fails is a warning, not a failure.
 */
export function declareIncidents(
  definitions: readonly LoadedDefinition[],
  options: DeclareOptions,
): DeclaredIncident[] {
  if (adoptionsAtRisk()) pulumi.log.warn(ADOPTIONS_AT_RISK_WARNING);
  return withoutPromiseStacks(() => definitions.map((loaded) => declareOne(loaded, options)));
}

/**
 * The Pulumi SDK records a stack trace on every promise it makes for a resource's properties
 * and outputs, only to name leaked promises in a debug report, and under the SDK's source-map
 * support each trace costs about 0.2 ms: at 1,000 incidents that was 2.3 of the program's 10 s
 * of CPU (BENCHMARKS.md, "Scale"). Declaring resources and outputs without frames in those
 * traces removes the cost; errors thrown later keep their stacks.
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

/** One definition's read of its updates, observation and resource. */
function declareOne(loaded: LoadedDefinition, options: DeclareOptions): DeclaredIncident {
  const { definition } = loaded;
  const claim = options.phase === "claim";
  const wanted =
    !claim && (options.settings.readBack === "all" || definition.status !== "RESOLVED");
  const read = wanted
    ? readBack(options.client, (client) => readIncidentUpdates(client, definition.id))
    : undefined;
  const observed = read?.apply(observationOf);
  const resource = new Incident(
    definition.resource,
    {
      ...declarationOf(definition),
      ...(observed ? { observed } : {}),
      ...(claim ? { claimOnly: true } : {}),
    },
    withAliases(options.resourceOptions, definition.aliases),
  );
  read?.apply((result) => {
    for (const cut of result.ok ? updatesCutForState(result.value) : []) {
      pulumi.log.warn(
        `${where(loaded, options.projectDir)}: update ${cut.id ?? "(no id)"} of incident ${definition.id} has a description of ${cut.description.length} characters; the stack outputs keep its first ${STATE_TEXT_LIMIT}.`,
        resource,
      );
    }
    if (!result.ok && !result.missing) {
      pulumi.log.warn(
        `${where(loaded, options.projectDir)}: could not read the updates of incident ${definition.id}, so this run cannot see changes made on the status page (the live status is unknown): ${result.reason}`,
        resource,
      );
    }
  });
  return { loaded, resource, read };
}

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

function observationOf(result: ReadBack<IncidentUpdate[]>): Observation {
  if (result.ok) return observe(result.value);
  return result.missing ? { kind: "missing" } : { kind: "unavailable", reason: result.reason };
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
      .all([resource.status, resource.appliedAt, resource.appliedUpdates, read ?? notRead()])
      .apply(([status, appliedAt, appliedUpdates, result]) =>
        incidentReadBack(
          loaded.definition,
          shownFile(options.projectDir, loaded.file),
          { status, appliedAt, appliedUpdates: appliedUpdates ?? [] },
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
  status: IncidentStatus;
  appliedAt: string;
  /** Updates the apply's PUT returned that the read before it had not seen. */
  appliedUpdates: IncidentUpdate[];
}

/**
 * One incident's outputs from this run's read of its updates and what the last apply left:
 * the status page as this run left it, by the one live-status rule.
 */
export function incidentReadBack(
  definition: LoadedDefinition["definition"],
  file: string,
  applied: AppliedReadBack,
  result: ReadBack<IncidentUpdate[]>,
): {
  id: string;
  output: IncidentOutput;
  updates: IncidentUpdate[] | Unavailable;
  drift: DriftEntry | undefined;
  /** The live status as the `summary` output counts it. */
  live: LiveCount;
} {
  const updates = result.ok ? merge(result.value, applied.appliedUpdates) : undefined;
  const live = updates
    ? liveStatusOf(updates, { status: applied.status, at: applied.appliedAt })
    : undefined;
  const output: IncidentOutput = {
    file,
    declared: {
      name: definition.name,
      severity: definition.severity,
      status: definition.status,
      services: declarationOf(definition).services,
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
  const drift = driftOf(
    definition.id,
    file,
    definition.status,
    applied.appliedAt,
    live?.status,
    updates,
    result,
  );
  return {
    id: definition.id,
    output,
    updates: updates ?? { unavailable: result.ok ? "not read" : result.reason },
    drift,
    live: result.ok ? (live?.status ?? "unknown") : result.skipped ? "notRead" : "unknown",
  };
}

const notRead = (): ReadBack<IncidentUpdate[]> => ({
  ok: false,
  missing: false,
  skipped: true,
  reason: "not read (readBack: open reads only incidents declared open)",
});

/** The updates read before the apply and those its PUT returned, newest first, at most 100. */
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
  incidentId: string,
  file: string,
  declaredStatus: IncidentStatus,
  appliedAt: string,
  liveStatus: IncidentStatus | null | undefined,
  updates: IncidentUpdate[] | undefined,
  result: ReadBack<IncidentUpdate[]>,
): DriftEntry | undefined {
  if (!updates) {
    // `readBack: open` skips resolved incidents on purpose: that is not an unknown.
    if (result.ok === false && result.skipped) return undefined;
    return {
      incidentId,
      file,
      declaredStatus,
      liveStatus: "unknown",
      appliedAt,
      updatesOutsideGit: [],
      reason: result.ok ? "not read" : result.reason,
    };
  }
  // Updates posted on the status page that keep the declared status are ordinary activity,
  // not drift.
  if (driftStateOf(liveStatus, declaredStatus) === "in-sync") return undefined;
  const live = liveStatus ?? "unknown";
  const outside = updatesAfter(updates, appliedAt);
  return {
    incidentId,
    file,
    declaredStatus,
    liveStatus: live,
    appliedAt,
    updatesOutsideGit: outside.map((update) => ({
      id: update.id ?? null,
      at: new Date(publishedAt(update)).toISOString(),
      status: update.status ?? null,
      description: update.description,
    })),
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
