import {
  type IncidentStatus,
  type IncidentUpdate,
  knownStatus,
  type Service,
  Severity,
} from "../api/schemas";
import { MAX_DECLARED_UPDATES } from "../definitions/declared-update";
import { IncidentDefinition } from "../definitions/schema";
import {
  listedService,
  type WrittenDefinition,
  type WrittenEntry,
  type WrittenService,
} from "../definitions/written-definition";

/*
 * The definition that mirrors an incident as the service shows it (`incident-sync import`):
 * its id, name, severity, services, duration (when it has one), and its updates as customers have
 * read them, oldest first, each with its status, its message as written (line ends as LF) and
 * its public date (else its creation). Adopting it finds every update posted (`isPostingOf`: the
 * message, and the status unless the service left it out), so the status filled in for an update
 * without one is never compared; a known status is never changed, as that would make it an update
 * to post.
 */

/** An incident as the list (or a read) shows it, its updates read. */
export interface MirroredIncident {
  readonly id: string;
  readonly name: string;
  readonly severity: string;
  readonly lastUpdateStatus: string;
  readonly services: readonly Service[];
  readonly duration?: number | null | undefined;
  readonly incidentUpdates: readonly IncidentUpdate[];
}

export type Mirror =
  | {
      readonly kind: "definition";
      readonly definition: WrittenDefinition;
      /** What the file's comment says besides the usual: updates left out, a reopen, … */
      readonly notes: string[];
      /** Its status once adopted: the last entry's, or the status it declares. */
      readonly status: IncidentStatus;
    }
  | { readonly kind: "refused"; readonly reason: string };

/**
 * The definition mirroring `incident`, or why no valid definition can: a name or message with a
 * character a definition refuses, a severity or status this tool does not know, a service with
 * no name, an update without an id (adopting would post it again).
 * @param catalog the names of the services catalog: a service it names is listed by id alone
 */
export function mirrorOf(incident: MirroredIncident, catalog: ReadonlyMap<string, string>): Mirror {
  const severity = Severity.safeParse(incident.severity);
  if (!severity.success) {
    return refused(
      `its severity ${JSON.stringify(incident.severity)} is not one a definition takes`,
    );
  }
  const services: WrittenService[] = [];
  for (const service of incident.services) {
    const named = catalog.get(service.id);
    if (named !== undefined) services.push({ id: service.id, name: named, named: "catalog" });
    else if (service.name) services.push({ id: service.id, name: service.name, named: "here" });
    else return refused(`its service ${JSON.stringify(service.id)} has no name anywhere`);
  }
  const read = [...incident.incidentUpdates];
  if (read.some((update) => !update.id)) {
    return refused(
      "an update has no id, so up could not tell it is posted, and would post it again",
    );
  }
  const duration = typeof incident.duration === "number" ? { duration: incident.duration } : {};
  const notes: string[] = [];
  const updates = oldestFirst(read).slice(-MAX_DECLARED_UPDATES);
  if (read.length >= MAX_DECLARED_UPDATES) {
    notes.push(
      `The service lists at most an incident's ${MAX_DECLARED_UPDATES} latest updates, and a definition holds as many: these are the latest ${updates.length} of the ${read.length} read; older ones are left out.`,
    );
  }
  const statuses = filledStatuses(updates, knownStatus(incident.lastUpdateStatus));
  let definition: WrittenDefinition;
  let status: IncidentStatus;
  if (updates.length === 0) {
    const declared = knownStatus(incident.lastUpdateStatus);
    if (declared === undefined) return refused("it has no update and no status this tool knows");
    definition = {
      id: incident.id,
      name: incident.name,
      severity: severity.data,
      services,
      ...duration,
      status: declared,
    };
    status = declared;
  } else {
    if (statuses === undefined)
      return refused("no update nor the incident shows a status this tool knows");
    const entries = entriesOf(updates, statuses, notes);
    const reopened = entries.findIndex(
      (entry, index) =>
        index > 0 && entries[index - 1]?.status === "RESOLVED" && entry.status !== "RESOLVED",
    );
    if (reopened !== -1) {
      notes.push(
        `It was reopened on the status page (updates[${reopened}]), which a definition declares with "reopen: true".`,
      );
    }
    definition = {
      id: incident.id,
      name: incident.name,
      severity: severity.data,
      ...(reopened === -1 ? {} : { reopen: true as const }),
      services,
      ...duration,
      updates: entries,
    };
    status = statuses.at(-1) as IncidentStatus;
    const field = knownStatus(incident.lastUpdateStatus);
    if (field !== undefined && field !== status) {
      notes.push(
        `The service gives the incident the status ${field}, and its newest update ${status}: a PUT may set the status without an update. The entries keep what customers read.`,
      );
    }
  }
  const problem = definitionProblem(definition);
  return problem === undefined
    ? { kind: "definition", definition, notes, status }
    : refused(problem);
}

function refused(reason: string): Mirror {
  return { kind: "refused", reason };
}

/**
 * When customers see an update (ms): its public date, else (absent, or no date a definition can
 * write) its creation; NaN with neither.
 */
function publicMs(update: IncidentUpdate): number {
  const shown = writableMs(update.publicIncidentUpdateDate);
  return Number.isNaN(shown) ? writableMs(update.created_at) : shown;
}

/** A date as ms when a definition's `at` can say it (a four-digit year), else NaN. */
function writableMs(text: string | null | undefined): number {
  const ms = Date.parse(text ?? "");
  return Number.isFinite(ms) && /^\d{4}-/.test(new Date(ms).toISOString()) ? ms : Number.NaN;
}

/** A message as a definition holds it: line ends as LF (`sameMessage` still finds it posted). */
function messageOf(update: IncidentUpdate): string {
  return update.description.replace(/\r\n?/g, "\n");
}

/**
 * Oldest first by the date customers see, then by creation, then by id: the service's own
 * order of updates is not documented, so it decides nothing.
 */
function oldestFirst(updates: readonly IncidentUpdate[]): IncidentUpdate[] {
  const key = (update: IncidentUpdate) => [
    publicMs(update) || 0,
    Date.parse(update.created_at ?? "") || 0,
  ];
  return [...updates].sort((a, b) => {
    const [publicA = 0, createdA = 0] = key(a);
    const [publicB = 0, createdB = 0] = key(b);
    return publicA - publicB || createdA - createdB || String(a.id).localeCompare(String(b.id));
  });
}

/**
 * A status for every update: its own when this tool knows it, else the one before it (a comment
 * leaves the status as it was), else the first known after it, else the incident's; undefined
 * when none is known at all.
 */
function filledStatuses(
  updates: readonly IncidentUpdate[],
  incident: IncidentStatus | undefined,
): IncidentStatus[] | undefined {
  const known = updates.map((update) => knownStatus(update.status));
  const fallback = known.find((status) => status !== undefined) ?? incident;
  if (fallback === undefined) return undefined;
  let previous: IncidentStatus | undefined;
  return known.map((status) => {
    previous = status ?? previous ?? fallback;
    return previous;
  });
}

/**
 * The entries: each update's status, message and public date, which a definition wants later
 * than the one before; a tie is written a millisecond after it, and said. Without a date on
 * every update, no entry has one.
 */
function entriesOf(
  updates: readonly IncidentUpdate[],
  statuses: readonly IncidentStatus[],
  notes: string[],
): WrittenEntry[] {
  const dated = updates.every((update) => !Number.isNaN(publicMs(update)));
  if (!dated) {
    notes.push('Not every update has a date the service shows, so no entry has one ("at").');
  }
  let last = Number.NEGATIVE_INFINITY;
  return updates.map((update, index) => {
    const status = statuses[index] as IncidentStatus;
    if (!dated) return { status, message: messageOf(update) };
    const shown = publicMs(update);
    const at = shown > last ? shown : last + 1;
    last = at;
    return {
      status,
      message: messageOf(update),
      at: new Date(at).toISOString(),
      ...(at === shown
        ? {}
        : {
            comment: `Shown at ${new Date(shown).toISOString()}, as is the update before it: dated a millisecond later, as entries are in order.`,
          }),
    };
  });
}

/** What the definitions' own schema says of it: the first problem, or undefined. */
function definitionProblem(definition: WrittenDefinition): string | undefined {
  const result = IncidentDefinition.safeParse({
    ...definition,
    services: definition.services.map(listedService),
    ...(definition.updates === undefined
      ? {}
      : { updates: definition.updates.map(({ comment: _comment, ...entry }) => entry) }),
  });
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  if (issue === undefined) return undefined;
  const path = issue.path.map((part) =>
    typeof part === "number" ? `[${part}]` : `.${String(part)}`,
  );
  return `a definition refuses it: ${path.join("").replace(/^\./, "") || "the definition"} ${issue.message}`;
}
