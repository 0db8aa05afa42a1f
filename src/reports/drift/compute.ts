import type { IncidentStatus, IncidentUpdate, ListedIncident } from "../../api/schemas";
import {
  type AppliedStatus,
  changedSinceApply,
  driftOf,
  driftVerdict,
  hasDrifted,
  type IncidentDeclaration,
  incidentLabel,
  type ObservedFields,
  unreadDrift,
} from "../../incident";
import { mapConcurrent } from "../shared/async-streams";
import { lastCommitTime } from "./git-baseline";
import {
  type DefinitionDrift,
  DRIFT_REPORT_KIND,
  type DriftBaseline,
  type DriftReport,
} from "./report-schema";

/** The part of the API client drift reads through. */
export interface IncidentUpdatesReader {
  listUpdates(incidentId: string): Promise<IncidentUpdate[]>;
  /**
   * The incident list (`incidents.pages`), read once: each incident's name, severity and
   * services, and its updates unless the answer is lean. Without it only updates are read.
   */
  pages?(): AsyncIterable<{ readonly entries: readonly ListedIncident[] }>;
}

/** What drift needs of a definition (a subset of the loader's `LoadedDefinition`). */
export interface DriftDefinition {
  /** A new incident has no `id`: its `resource` finds it in `applied`. */
  definition: {
    id?: string | undefined;
    resource?: string;
    name: string;
    status: IncidentStatus;
  } & Partial<Pick<IncidentDeclaration, "severity" | "services">>;
  /** The definition file as shown to people. */
  file: string;
  /** Where git finds the file, when `file` is relative to another directory. @default file */
  path?: string;
  at: { line: number };
}

export interface DriftOptions {
  /**
   * What the last apply set, by incident id (`--applied`, `readAppliedFile`): with it an update
   * older than the apply no longer speaks for the live status, whatever the service's PUT does.
   */
  applied?: ReadonlyMap<string, AppliedStatus & { resource?: string }>;
  /** By incident id, the updates the stack's applies posted: git's own, never outside it. */
  posted?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * What the stack's state says, when drift was asked for a stack (`--stack`): `read` with the
   * resources claimed and not yet opened, or why it could not be read.
   */
  stack?:
    | { name: string; read: true; unopened: readonly string[] }
    | { name: string; read: false; why: string };
  /** The file `applied` was read from (`--applied`), named where a new incident is not in it. */
  appliedFile?: string;
  /** Only updates after this time count as posted outside git; overrides the git baseline. */
  since?: Date;
  /** Tells whether an error means the incident does not exist (404). */
  isNotFound: (error: unknown) => boolean;
  now?: Date;
  /**
   * Tells whether a failed read of the incident list leaves each incident's updates to read
   * (a list not as the contract says, or not served); any other error fails the check.
   * @default never
   */
  listDegrades?: (error: unknown) => boolean;
  /** Told when the incident list could not be read, and drift falls back to each incident's updates. */
  warn?: (line: string) => void;
  /** Concurrent incident reads; the client's own limits still apply. @default 8 */
  concurrency?: number;
}

/**
 * Each definition's drift by the one drift model (`driftOf`, as the stack's `drift` output),
 * counting updates published after the baseline as outside git.
 */
export async function computeDrift(
  reader: IncidentUpdatesReader,
  declared: readonly DriftDefinition[],
  options: DriftOptions,
): Promise<DriftReport> {
  const results: DefinitionDrift[] = [];
  const listed = listOnce(reader, options);
  const checked = mapConcurrent(
    (async function* () {
      yield* declared;
    })(),
    options.concurrency ?? 8,
    (item) => checkOne(reader, listed, item, options),
  );
  for await (const result of checked) results.push(result);
  const order = new Map(declared.map((d, i) => [d.file + String(d.at.line), i]));
  results.sort(
    (a, b) => (order.get(a.file + String(a.line)) ?? 0) - (order.get(b.file + String(b.line)) ?? 0),
  );
  const count = (state: DefinitionDrift["state"]) =>
    results.filter((r) => driftVerdict(r) === state).length;
  const updates = results.flatMap((r) => r.updatesOutsideGit);
  const summary = {
    definitions: results.length,
    inSync: count("in-sync"),
    drifted: count("drifted"),
    missing: count("missing"),
    unknown: count("unknown"),
    fieldsDrifted: results.filter((r) => (r.fields?.length ?? 0) > 0).length,
    unchecked: results.filter((r) => r.checked === false).length,
    expectedUpdates: updates.filter((u) => u.class === "expected").length,
    driftUpdates: updates.filter((u) => u.class === "drift").length,
  };
  return {
    kind: DRIFT_REPORT_KIND,
    version: 1,
    generatedAt: (options.now ?? new Date()).toISOString(),
    // The one verdict (`hasDrifted`), but an unknown live status is not drift here: an
    // incident that could not be checked is counted apart, as `unchecked`.
    drift: results.some((r) => r.state !== "unknown" && hasDrifted(r)),
    summary,
    ...(options.stack === undefined
      ? {}
      : {
          stack: {
            name: options.stack.name,
            read: options.stack.read,
            ...(options.stack.read ? {} : { reason: options.stack.why }),
          },
        }),
    definitions: results,
  };
}

/** The incident list by id, read on first use and once, or nothing without `pages`. */
function listOnce(
  reader: IncidentUpdatesReader,
  options: Pick<DriftOptions, "warn" | "listDegrades">,
): () => Promise<Map<string, ListedIncident>> {
  let listed: Promise<Map<string, ListedIncident>> | undefined;
  return () => {
    listed ??= (async () => {
      const byId = new Map<string, ListedIncident>();
      if (!reader.pages) return byId;
      try {
        for await (const page of reader.pages())
          for (const incident of page.entries) byId.set(incident.id, incident);
      } catch (error) {
        // A list the service does not give as its contract says degrades the check, not the run.
        if (options.listDegrades?.(error) !== true) throw error;
        options.warn?.(
          `the incident list could not be read (${(error as Error).message}); names, severities and services are not compared, and each incident's updates are read instead.`,
        );
        byId.clear();
      }
      return byId;
    })();
    return listed;
  };
}

async function checkOne(
  reader: IncidentUpdatesReader,
  list: () => Promise<Map<string, ListedIncident>>,
  item: DriftDefinition,
  options: DriftOptions,
): Promise<DefinitionDrift> {
  const { definition } = item;
  const baseline = await baselineFor(item.path ?? item.file, options.since);
  const incidentId = definition.id ?? appliedIdOf(definition.resource, options.applied);
  const base = {
    id: incidentLabel(incidentId, definition.resource),
    name: definition.name,
    resource: definition.resource,
    file: item.file,
    line: item.at.line,
    baseline,
  };
  if (incidentId === undefined) {
    return {
      ...base,
      ...unreadDrift(definition.status, { missing: false, reason: uncheckedReason(item, options) }),
      checked: false,
    };
  }
  const listed = (await list()).get(incidentId);
  let updates: IncidentUpdate[];
  try {
    updates = listed?.incidentUpdates ?? (await reader.listUpdates(incidentId));
  } catch (error) {
    if (options.isNotFound(error))
      return { ...base, ...unreadDrift(definition.status, { missing: true }) };
    throw error;
  }
  const applied = options.applied?.get(incidentId);
  // The service's time of the incident's last change, as the stack's output reads it.
  const fields: (ObservedFields & { created_at?: string | null }) | undefined = listed && {
    created_at: listed.created_at,
    name: listed.name,
    severity: listed.severity,
    services: listed.services,
    updated_at: listed.updated_at,
  };
  const { live: _live, ...drift } = driftOf({
    declared: definition,
    updates,
    applied,
    since: baseline.at,
    // As the stack's output: a field changed before the last apply was checked by it.
    fields:
      fields && (applied === undefined || changedSinceApply(fields, applied.at))
        ? fields
        : undefined,
    posted: options.posted?.get(incidentId),
  });
  return { ...base, ...drift };
}

/** Why a new incident (no `id`) could not be checked: what the stack's state said of it. */
function uncheckedReason(item: DriftDefinition, options: DriftOptions): string {
  const { stack } = options;
  if (stack === undefined && options.appliedFile !== undefined)
    return `a new incident that --applied ${options.appliedFile} has no id for: the stack has not opened it yet, or the file is not this stack's`;
  if (stack === undefined)
    return "a new incident: its id is in the stack's state once the first up has opened it; pass --stack to read it";
  if (!stack.read) return `a new incident, and the stack's state could not be read: ${stack.why}`;
  if (item.definition.resource !== undefined && stack.unopened.includes(item.definition.resource))
    return "a new incident the stack has claimed but not opened yet: the next up opens it";
  return "a new incident the stack has not opened yet: the next up opens it";
}

/** The id of the incident a new definition opened, from the stack's record of its resource. */
function appliedIdOf(
  resource: string | undefined,
  applied: DriftOptions["applied"],
): string | undefined {
  if (resource === undefined || applied === undefined) return undefined;
  for (const [id, record] of applied) if (record.resource === resource) return id;
  return undefined;
}

async function baselineFor(file: string, since: Date | undefined): Promise<DriftBaseline> {
  if (since) return { source: "since", at: since.toISOString() };
  const committed = await lastCommitTime(file);
  return committed ? { source: "git", at: committed.toISOString() } : { source: "none", at: null };
}
