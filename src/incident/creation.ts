import type { IncidentUpdate } from "../api/schemas";
import type { IncidentDeclaration } from "./declaration";
import { type DeclaredEntry, isPostingOf, oldestFirst, preview } from "./entries";

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
  /** Its updates; every one the service lists. */
  incidentUpdates: readonly IncidentUpdate[];
}

export type CreationDecision =
  /** Nothing matches: open it. */
  | { kind: "create" }
  /** An earlier run opened it: take it, and say so. */
  | { kind: "adopt"; incidentId: string; note: string }
  /** A match too old to be taken for sure: the person decides. */
  | { kind: "refuse"; message: string };

/** Whether an incident is the opening of this declaration: its name and its first update. */
export function isOpeningOf(
  candidate: Pick<CreationCandidate, "name" | "incidentUpdates">,
  declaration: Pick<IncidentDeclaration, "name">,
  first: DeclaredEntry,
): boolean {
  const [oldest] = oldestFirst(candidate.incidentUpdates);
  return candidate.name === declaration.name && oldest !== undefined && isPostingOf(oldest, first);
}

/**
 * Open, adopt or refuse, given the matching incidents no other resource manages: one created
 * since `intentAt` is its own; without it, only one from the last `RECENT_CREATION_MS`.
 */
export function decideCreation(
  declaration: Pick<IncidentDeclaration, "name" | "resource">,
  first: DeclaredEntry,
  matches: readonly CreationCandidate[],
  options: { intentAt?: string | undefined; now: number },
): CreationDecision {
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
      note: `${what} was opened as ${own.id} at ${own.created_at} by a run that stopped before it could record it; it is taken, not opened again.`,
    };
  }
  const old = newest[0] as CreationCandidate;
  return {
    kind: "refuse",
    message: `${what} is not opened: incident ${old.id}, opened at ${old.created_at}, has the same name and the same first message ("${preview(first.message)}"), and opening another would put the same text on the status page twice. If ${old.id} is this one, add "id: ${old.id}" to the definition; if this is a new incident, make its first message say so (a date, what is affected).`,
  };
}

/**
 * The service's incidents that may be this declaration's opening, before their updates are
 * read: the same name, and no incident this run declares or has taken already.
 */
export function namesakes<T extends { id: string; name: string }>(
  listed: readonly T[],
  declaration: Pick<IncidentDeclaration, "name">,
  inRun: ReadonlySet<string>,
): T[] {
  return listed.filter((incident) => incident.name === declaration.name && !inRun.has(incident.id));
}

/** Of incidents read whole, those that are the opening of this declaration (`isOpeningOf`). */
export function openingsAmong(
  incidents: readonly {
    id: string;
    name: string;
    created_at: string;
    incidentUpdates?: readonly IncidentUpdate[] | undefined;
  }[],
  declaration: Pick<IncidentDeclaration, "name">,
  first: DeclaredEntry,
): CreationCandidate[] {
  return incidents.flatMap((incident) => {
    const { incidentUpdates } = incident;
    if (incidentUpdates === undefined) return [];
    const candidate = { ...incident, incidentUpdates };
    return isOpeningOf(candidate, declaration, first) ? [candidate] : [];
  });
}
