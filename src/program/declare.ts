import { isAbsolute, relative } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Incident } from "../../providers/incident";
import type { MonitoringClient } from "../api";
import type { LoadedDefinition } from "../definitions";
import {
  adoptionsAtRisk,
  adoptionsAtRiskWarning,
  type ClaimPhase,
  candidatesFirst,
  declarationOf,
  type IncidentDeclaration,
  incidentLabel,
  type Observation,
  observe,
  openingOf,
  STATE_TEXT_LIMIT,
  updatesCutForState,
} from "../incident";
import { commandLine, runCommandsContext, type StackSettings } from "../settings";
import {
  type FreshIncident,
  type IncidentReads,
  type ReadIncident,
  readIncidents,
} from "./incident-reads";
import { type ReadBack, readBack, settle } from "./read-backs";

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
   * `claim`: the run records new incidents in the state and applies nothing, so it reads only
   * whether the declared ids exist and has no outputs (`src/incident/claim.ts`).
   * @default the plain CLI's run
   */
  phase?: ClaimPhase | undefined;
}

/** The most candidates a new incident passes to its provider (inputs are kept in the state). */
const CANDIDATES_MAX = 5;

/**
 * One `Incident` per definition, each given this run's read of its incident as an observation
 * (a new one, the reads that may be it); `readBack: open` reads only those declared open.
 */
export function declareIncidents(
  definitions: readonly LoadedDefinition[],
  options: DeclareOptions,
): DeclaredIncident[] {
  warnOfAdoptionsAtRisk();
  // A claim reads only whether the declared ids exist, through the same list, so its provider
  // needs no read of its own per incident.
  const wanted = definitions.filter(
    (loaded) =>
      isRead(loaded, options) && (options.phase !== "claim" || loaded.definition.id !== undefined),
  );
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
  const fresh: FreshIncident[] = [];
  for (const { definition } of definitions) {
    const opening = openingOf(definition);
    if (definition.id !== undefined) ids.push(definition.id);
    else if (opening) fresh.push({ resource: definition.resource, ...opening });
  }
  return { ids, fresh };
}

/**
 * Declares with no stack frames in the traces the SDK records on every promise of a resource
 * (source-mapped, they are costly; BENCHMARKS.md, "Scale"); later errors keep theirs.
 */
export function withoutPromiseStacks<T>(declare: () => T): T {
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
      ? reads?.apply((all) => candidatesInput(all.candidatesOf(definition.resource), declaration))
      : undefined;
  const observed = known?.apply((result) => observationOf(result, declaration));
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

/** A new incident's candidates as its provider takes them: a few (`candidatesFirst`), observed. */
function candidatesInput(
  candidates: readonly ReadIncident[],
  declaration: IncidentDeclaration,
): Record<string, Observation> | undefined {
  // None is no input at all (an output of undefined is left out): a create shows nothing.
  if (candidates.length === 0) return undefined;
  const ofItsName = (read: ReadIncident) => read.fields?.name === declaration.name;
  const newest = candidatesFirst(candidates, ofItsName, CANDIDATES_MAX);
  return Object.fromEntries(
    newest.map((candidate) => [
      candidate.id,
      observationOf({ ok: true, value: candidate }, declaration),
    ]),
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

function observationOf(result: ReadBack<ReadIncident>, declared: IncidentDeclaration): Observation {
  if (!result.ok) {
    return result.missing ? { kind: "missing" } : { kind: "unavailable", reason: result.reason };
  }
  return observe(result.value.updates, result.value.fields, declared);
}

export function where(loaded: LoadedDefinition, projectDir: string): string {
  return `${shownFile(projectDir, loaded.file)}:${loaded.at.line}`;
}

/**
 * A definition's file as messages and outputs name it: relative to the project when it is a
 * file, as given when the definition was written in code (`incidents[2]`).
 */
export function shownFile(projectDir: string, file: string): string {
  return isAbsolute(file) ? relative(projectDir, file) || file : file;
}

/** The read of an incident `readBack: open` leaves out on purpose. */
export const notRead = (): ReadBack<ReadIncident> => ({
  ok: false,
  missing: false,
  skipped: true,
  reason: "not read (readBack: open reads only incidents declared open)",
});

/**
 * Warns a run that could forget its adoptions, in the words of whoever started it; a preview
 * incident-sync started adopts nothing, and the `incident-sync up` after it claims first.
 */
function warnOfAdoptionsAtRisk(): void {
  if (!adoptionsAtRisk()) return;
  const context = runCommandsContext();
  if (context === "cli" && pulumi.runtime.isDryRun()) return;
  const stack = pulumi.getStack();
  const commands = {
    cancel: commandLine("cancel", context, stack),
    up: commandLine("up", context, stack),
  };
  pulumi.log.warn(adoptionsAtRiskWarning(commands, context === "pulumi"));
}
