import { readFile } from "node:fs/promises";
import { z } from "zod";
import { IncidentStatus } from "../../api/schemas";
import { INCIDENT_TYPE } from "../../incident";
import { UserError } from "../../user-error";

/**
 * The stack output `incidents` (`pulumi stack output incidents --json`, which a stack exports
 * with `incident-sync:outputs full`): per incident id, what the last apply set. Only the
 * members drift needs are read; the rest of each entry is left alone.
 */
const AppliedOutput = z.record(
  z.string(),
  z.object({
    applied: z.object({ status: IncidentStatus, at: z.string() }),
    resource: z.string().optional(),
  }),
);

/** What the last apply of one incident set (its status, at the server time of its PUT), and the resource that declares it. */
export interface AppliedRecord {
  status: IncidentStatus;
  at: string;
  /** The resource name: how drift finds a new incident, whose definition has no id. */
  resource?: string;
}

/**
 * The stack's state (`pulumi stack export`), whatever the stack exports: every resource, of
 * which drift reads only incident-sync's `Incident`s that are not waiting to be deleted.
 */
const StateResource = z.object({
  urn: z.string().optional(),
  type: z.string(),
  delete: z.boolean().optional(),
  outputs: z.unknown().optional(),
});

const StackExport = z.object({
  deployment: z.object({ resources: z.array(StateResource).nullish() }),
});

/**
 * What an `Incident` resource's state says of its last apply: the status it set and the
 * server time of its PUT; `appliedAt` is empty while the incident is claimed, not yet applied.
 */
const IncidentState = z.object({
  incidentId: z.string(),
  status: IncidentStatus,
  appliedAt: z.string(),
  /** The ids of the updates its definition's entries are on the status page as. */
  updateIds: z.array(z.string()).nullish(),
  /** Updates the last apply made (those it posted among them). */
  appliedUpdates: z.array(z.object({ id: z.string().nullish() })).nullish(),
});

/**
 * What a stack's state says of its incidents: each one's last apply by incident id, the
 * updates its applies posted (which are git's, never drift), and the resources claimed but
 * not yet opened, which have no id to check yet.
 */
export interface StackRecords {
  applied: Map<string, AppliedRecord>;
  /** By incident id: the ids of the updates the stack's applies posted. */
  posted: Map<string, ReadonlySet<string>>;
  /** Resource names of new incidents claimed and not yet opened. */
  unopened: string[];
  /** By resource name, the incident id the state holds (opened or adopted). */
  ids: Map<string, string>;
}

/** The applied file cannot be read or is neither form it may take; says which and how to make it. */
export class AppliedFileError extends UserError {
  override name = "AppliedFileError";
}

/**
 * Reads `--applied`: what each incident's last apply set, by incident id, from either the
 * stack's state (`pulumi stack export`) or the stack output `incidents`
 * (`pulumi stack output incidents --json`, under `incident-sync:outputs full`).
 */
export async function readAppliedFile(file: string): Promise<Map<string, AppliedRecord>> {
  return (await readAppliedInput(file)).applied;
}

/** `readAppliedFile`, with what a stack export also says: the updates its applies posted. */
export async function readAppliedInput(file: string): Promise<StackRecords> {
  const hint = `write it with \`pulumi stack export > ${file}\`, or with \`pulumi stack output incidents --json > ${file}\` from a stack with \`incident-sync:outputs full\``;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new AppliedFileError(
      `--applied ${file} cannot be read (${(error as Error).message}); ${hint}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppliedFileError(`--applied ${file} is not JSON; ${hint}.`);
  }
  if (isObject(json) && "deployment" in json) return appliedOfExport(json, file, hint);
  const parsed = AppliedOutput.safeParse(json);
  if (parsed.success) {
    const applied = new Map(
      Object.entries(parsed.data).map(([id, entry]) => [
        id,
        entry.resource === undefined
          ? entry.applied
          : { ...entry.applied, resource: entry.resource },
      ]),
    );
    const ids = new Map(
      Object.entries(parsed.data).flatMap(([id, entry]) =>
        entry.resource === undefined ? [] : [[entry.resource, id] as const],
      ),
    );
    return { applied, posted: new Map(), unopened: [], ids };
  }
  // `pulumi stack output --json` of a stack that exports only the summary: no `incidents`.
  if (isObject(json) && "summary" in json && !("incidents" in json)) {
    throw new AppliedFileError(
      `--applied ${file} holds the stack's outputs, which have no \`incidents\` (the stack exports \`incident-sync:outputs summary\`); ${hint}.`,
    );
  }
  throw new AppliedFileError(
    `--applied ${file} is neither a \`pulumi stack export\` nor the stack output \`incidents\` (${problems(parsed.error)}); ${hint}.`,
  );
}

/** The last apply of every `Incident` in a stack export, skipping those claimed, not applied. */
function appliedOfExport(json: unknown, file: string, hint: string): StackRecords {
  const parsed = StackExport.safeParse(json);
  if (!parsed.success) {
    throw new AppliedFileError(
      `--applied ${file} is not a \`pulumi stack export\` (${problems(parsed.error)}); ${hint}.`,
    );
  }
  return stackRecordsOf(parsed.data.deployment.resources ?? [], (urn, why) => {
    throw new AppliedFileError(
      `--applied ${file}: the state of ${urn ?? "an Incident"} is not one incident-sync wrote (${why}); ${hint}.`,
    );
  });
}

/**
 * The one reader of a stack's resources, whether from `pulumi stack export` or from a
 * `file://` backend's state file: every `Incident` not waiting to be deleted.
 */
export function stackRecordsOf(
  resources: readonly unknown[],
  refuse: (urn: string | undefined, why: string) => never,
): StackRecords {
  const records: StackRecords = {
    applied: new Map(),
    posted: new Map(),
    unopened: [],
    ids: new Map(),
  };
  for (const item of resources) {
    const resource = StateResource.safeParse(item);
    if (!resource.success || resource.data.type !== INCIDENT_TYPE) continue;
    if (resource.data.delete === true) continue;
    const { urn } = resource.data;
    const state = IncidentState.safeParse(resource.data.outputs);
    if (!state.success) refuse(urn, problems(state.error));
    const { incidentId, status, appliedAt, updateIds, appliedUpdates } = state.data;
    const name = urn?.slice(urn.lastIndexOf("::") + 2);
    if (incidentId === "") {
      if (name) records.unopened.push(name);
      continue;
    }
    if (name) records.ids.set(name, incidentId);
    const posted = [
      ...(updateIds ?? []),
      ...(appliedUpdates ?? []).flatMap((update) => (update.id ? [update.id] : [])),
    ];
    if (posted.length > 0) records.posted.set(incidentId, new Set(posted));
    if (appliedAt !== "") {
      records.applied.set(incidentId, {
        status,
        at: appliedAt,
        ...(name ? { resource: name } : {}),
      });
    }
  }
  return records;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first few problems zod found, on one line. */
const problems = (error: z.ZodError) => z.prettifyError(error).split("\n").slice(0, 3).join("; ");
