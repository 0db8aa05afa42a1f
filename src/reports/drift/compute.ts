import type { IncidentStatus, IncidentUpdate } from "../../api/schemas";
import {
  type AppliedStatus,
  driftOf,
  driftVerdict,
  incidentLabel,
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
}

/** What drift needs of a definition (a subset of the loader's `LoadedDefinition`). */
export interface DriftDefinition {
  /** A new incident has no `id`: its `resource` finds it in `applied`. */
  definition: { id?: string | undefined; resource?: string; name: string; status: IncidentStatus };
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
  /** Only updates after this time count as posted outside git; overrides the git baseline. */
  since?: Date;
  /** Tells whether an error means the incident does not exist (404). */
  isNotFound: (error: unknown) => boolean;
  now?: Date;
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
  const checked = mapConcurrent(
    (async function* () {
      yield* declared;
    })(),
    options.concurrency ?? 8,
    (item) => checkOne(reader, item, options),
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
    expectedUpdates: updates.filter((u) => u.class === "expected").length,
    driftUpdates: updates.filter((u) => u.class === "drift").length,
  };
  return {
    kind: DRIFT_REPORT_KIND,
    version: 1,
    generatedAt: (options.now ?? new Date()).toISOString(),
    drift: summary.drifted + summary.missing > 0,
    summary,
    definitions: results,
  };
}

async function checkOne(
  reader: IncidentUpdatesReader,
  item: DriftDefinition,
  options: DriftOptions,
): Promise<DefinitionDrift> {
  const { definition } = item;
  const baseline = await baselineFor(item.path ?? item.file, options.since);
  const incidentId = definition.id ?? appliedIdOf(definition.resource, options.applied);
  const base = {
    id: incidentLabel(incidentId, definition.resource),
    name: definition.name,
    file: item.file,
    line: item.at.line,
    baseline,
  };
  if (incidentId === undefined) {
    return {
      ...base,
      ...unreadDrift(definition.status, {
        missing: false,
        reason: `a new incident: its id is in the stack's state once the first up has opened it; pass --applied with \`pulumi stack export\` to check it`,
      }),
    };
  }
  let updates: IncidentUpdate[];
  try {
    updates = await reader.listUpdates(incidentId);
  } catch (error) {
    if (options.isNotFound(error))
      return { ...base, ...unreadDrift(definition.status, { missing: true }) };
    throw error;
  }
  const { live: _live, ...drift } = driftOf({
    declared: definition,
    updates,
    applied: options.applied?.get(incidentId),
    since: baseline.at,
  });
  return { ...base, ...drift };
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
