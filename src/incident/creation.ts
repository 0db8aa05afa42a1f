import type { IncidentUpdate } from "../api/schemas";
import { normalizeMessage, sameMessage } from "../definitions/same-incident";
import { safeLine } from "../safe-text";
import { type IncidentDeclaration, incidentLabel } from "./declaration";
import { type DeclaredEntry, earliest, isPostingOf, preview } from "./entries";
import { shownStatus } from "./live-status";

export { opensSameIncident } from "../definitions/same-incident";

/*
 * Opening an incident is not idempotent: before any create, the service's incidents are read,
 * and one this declaration opened already (its name and first entry) is taken instead.
 */

/** How far a clock may be off from the service's when comparing it with a recorded intent. */
export const CLOCK_SKEW_MS = 10 * 60 * 1000;

/**
 * How recent an incident that matches must be to be taken as this declaration's when no
 * intent was recorded (a plain `pulumi up` stopped mid-create): a run is re-run within hours;
 * an older match is more likely a past incident written the same way, and is not taken.
 */
export const RECENT_CREATION_MS = 24 * 60 * 60 * 1000;

/** An incident of the service that may be one this declaration opened. */
export interface CreationCandidate {
  id: string;
  name: string;
  created_at: string;
  lastUpdateStatus?: string | null | undefined;
  /** Its updates; every one the service lists. */
  incidentUpdates: readonly IncidentUpdate[];
}

export type CreationDecision =
  /** Nothing matches: open it. */
  | { kind: "create" }
  /** It is on the status page and the state does not record it: take it, and say so. */
  | { kind: "adopt"; incidentId: string; note: string }
  /** A match too old to be taken for sure: the person decides. */
  | { kind: "refuse"; message: string };

/**
 * What identifies the incident a definition without `id` opened: its name and its first
 * entry. The one rule of "the incident this definition opened", for the program's reads and
 * the provider's search alike.
 */
export interface Opening {
  name: string;
  first: DeclaredEntry;
}

/** The opening a declaration looks for; none without `updates`. */
export function openingOf(declaration: {
  name: string;
  updates?: readonly DeclaredEntry[] | undefined;
}): Opening | undefined {
  const first = declaration.updates?.[0];
  return first === undefined ? undefined : { name: declaration.name, first };
}

/**
 * The openings a new incident looks for: its declaration's, and the one its state recorded
 * before the create was sent (a claim's intent, a create that got no answer), which an edit of
 * the name or the first message since must not lose.
 */
export function openingsSought(
  declaration: { name: string; updates?: readonly DeclaredEntry[] | undefined },
  recorded: { name: string; updates?: readonly DeclaredEntry[] | undefined } | undefined,
): Opening[] {
  const now = openingOf(declaration);
  const then = recorded && openingOf(recorded);
  const all = [now, then].flatMap((opening) => (opening ? [opening] : []));
  return all.filter(
    (opening, index) => all.findIndex((other) => sameOpening(other, opening)) === index,
  );
}

function sameOpening(a: Opening, b: Opening): boolean {
  return a.name === b.name && sameMessage(a.first.message, b.first.message);
}

/** An opening as one text, the same for every way of writing the same message. */
export function openingKey(opening: Opening): string {
  return `${opening.name}\n${normalizeMessage(opening.first.message)}`;
}

/**
 * The lease a new incident is opened under, and its first posts made: its opening as declared.
 */
export function openingLease(declaration: {
  name: string;
  updates?: readonly DeclaredEntry[] | undefined;
}): string {
  return openingLeases(declaration, undefined)[0] ?? "opening:";
}

/**
 * The leases an opening is sought under: its own and, after an edit, the one its state
 * recorded, whose holder may have been sending the create. In one order, so none waits in a cycle.
 */
export function openingLeases(
  declaration: { name: string; updates?: readonly DeclaredEntry[] | undefined },
  recorded: { name: string; updates?: readonly DeclaredEntry[] | undefined } | undefined,
): string[] {
  const keys = openingsSought(declaration, recorded).map(
    (opening) => `opening:${openingKey(opening)}`,
  );
  return [...new Set(keys)].sort();
}

/** Whether an incident is the given opening: its name, and its first update is that entry. */
export function isOpeningOf(
  candidate: { name: string; incidentUpdates: readonly IncidentUpdate[] },
  opening: Opening,
): boolean {
  return candidate.name === opening.name && mayHaveOpened(candidate, opening);
}

/**
 * Whether an incident may be the one an opening opened, whatever name the status page gave it
 * since: its first update is the opening's entry. Only for the program's observations, which
 * the provider takes by the id its state records (`observationFor`), never to adopt.
 */
export function mayHaveOpened(
  candidate: { incidentUpdates: readonly IncidentUpdate[] },
  opening: Opening,
): boolean {
  return earliest(candidate.incidentUpdates).some((update) => isPostingOf(update, opening.first));
}

/**
 * The few of `mayHaveOpened`'s incidents a new incident's provider is given: those still of its
 * name first (a renamed one is the rarer case, and must not crowd them out), then the newest.
 */
export function candidatesFirst<T extends { created_at?: string | undefined }>(
  candidates: readonly T[],
  ofItsName: (candidate: T) => boolean,
  max: number,
): T[] {
  const renamed = (candidate: T) => (ofItsName(candidate) ? 0 : 1);
  // Stryker disable next-line StringLiteral: any text Date.parse cannot read counts as 0, as the empty one does
  const created = (candidate: T) => Date.parse(candidate.created_at ?? "") || 0;
  return [...candidates]
    .sort((a, b) => renamed(a) - renamed(b) || created(b) - created(a))
    .slice(0, max);
}

/**
 * Open, adopt or refuse, given the matching incidents no other resource manages: one created
 * since `intentAt` (else in the last `RECENT_CREATION_MS`) is its own; an older one still open
 * is refused, and an older one resolved is let be.
 */
export function decideCreation(
  declaration: Pick<IncidentDeclaration, "name" | "resource">,
  first: DeclaredEntry,
  matches: readonly CreationCandidate[],
  options: { intentAt?: string | undefined; now: number },
): CreationDecision {
  // Stryker disable next-line ConditionalExpression: a shortcut: with no match, neither search below finds one, and the end is create too
  if (matches.length === 0) return { kind: "create" };
  const newest = [...matches].sort(
    (a, b) => (Date.parse(b.created_at) || 0) - (Date.parse(a.created_at) || 0),
  );
  const since =
    options.intentAt === undefined
      ? options.now - RECENT_CREATION_MS
      : (Date.parse(options.intentAt) || options.now) - CLOCK_SKEW_MS;
  const own = newest.find((match) => (Date.parse(match.created_at) || 0) >= since);
  const what = `incident "${declaration.name}" (resource ${declaration.resource ?? "?"})`;
  if (own !== undefined) {
    return {
      kind: "adopt",
      incidentId: own.id,
      note: `${what} is on the status page already as ${safeLine(own.id)}, opened at ${safeLine(own.created_at)} with its name and first message, and this stack's state does not record it; it is taken, not opened again (another stack of this definition may have opened it).`,
    };
  }
  // A resolved look-alike is a past incident written the same way (a recurring one): opening
  // this one puts nothing on the status page twice.
  const old = newest.find((match) => shownStatus(match) !== "RESOLVED");
  if (old === undefined) return { kind: "create" };
  const oldId = safeLine(old.id);
  return {
    kind: "refuse",
    message: `${what} is not opened: incident ${oldId}, opened at ${safeLine(old.created_at)} and not resolved, has the same name and the same first message ("${preview(first.message)}"), and opening another would put the same text on the status page twice. If ${oldId} is this one, add "id: ${oldId}" to the definition; if this is a new incident, make its first message say so (a date, what is affected).`,
  };
}

/**
 * The service's incidents that may be one of these openings, before their updates are read: of
 * its name and taken by nothing of this run; and the entries the list could not read that may be.
 */
export function namesakes<T extends { id: string; name: string }>(
  listed: {
    entries: readonly T[];
    skipped: readonly {
      index: number;
      id?: string | undefined;
      name?: string | undefined;
      problem: string;
    }[];
  },
  openings: readonly Opening[],
  inRun: ReadonlySet<string>,
): { named: T[]; unreadable: string[] } {
  // Stryker disable next-line ConditionalExpression: a set of ids never holds undefined, so the second test says the same
  const free = (id: string | undefined) => id === undefined || !inRun.has(id);
  const names = new Set(openings.map((opening) => opening.name));
  return {
    named: listed.entries.filter((incident) => names.has(incident.name) && free(incident.id)),
    unreadable: listed.skipped
      .filter((entry) => (entry.name === undefined || names.has(entry.name)) && free(entry.id))
      .map(
        (entry) => `${safeLine(entry.id ?? `entry ${entry.index}`)} (${safeLine(entry.problem)})`,
      ),
  };
}

/** Nothing is opened while an incident that may be this one cannot be read (`which`). */
export function unreadableOpeningsMessage(
  declaration: Pick<IncidentDeclaration, "resource">,
  which: readonly string[],
): string {
  return `${incidentLabel(undefined, declaration.resource)}: not opened: the service lists incidents of its name that this stack's state does not record, which may be this one and cannot be read: ${which.join(", ")}. Nothing is sent until they can be read; if one of them is this incident, add its id to the definition.`;
}

/** An incident on the status page that the state does not record, found by two definitions of this stack. */
export function takenTwiceMessage(name: string, incidentId: string): string {
  return `${name}: incident ${safeLine(incidentId)}, on the status page with this name and first message and not recorded in this stack's state, is taken by another definition of this stack with the same name and first message. Give one of them another first message.`;
}

/**
 * Of incidents read whole, those that are the opening sought: the name of one of `openings`
 * and the first update of one, in either combination, as an apply stopped between the PUT of
 * a new name and the edit of the first entry leaves them.
 */
export function openingsAmong(
  incidents: readonly {
    id: string;
    name: string;
    created_at: string;
    lastUpdateStatus?: string | null | undefined;
    incidentUpdates?: readonly IncidentUpdate[] | undefined;
  }[],
  openings: readonly Opening[],
): CreationCandidate[] {
  return incidents.flatMap((incident) => {
    const { incidentUpdates } = incident;
    if (incidentUpdates === undefined) return [];
    const candidate = { ...incident, incidentUpdates };
    const named = openings.some((opening) => opening.name === incident.name);
    const opened = openings.some((opening) =>
      isOpeningOf({ ...candidate, name: opening.name }, opening),
    );
    return named && opened ? [candidate] : [];
  });
}
