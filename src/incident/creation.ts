import type { IncidentUpdate } from "../api/schemas";
import { safeLine } from "../safe-text";
import type { IncidentDeclaration } from "./declaration";
import { type DeclaredEntry, earliest, isPostingOf, preview, sameMessage } from "./entries";
import { shownStatus } from "./live-status";

/*
 * Opening an incident (`POST /v1/status-pages/incidents`) is not idempotent, and a run can be
 * stopped after the service created it but before the stack recorded it. So before any
 * create, the service's incidents are read and one that this declaration already opened is
 * taken instead: the same name, and as its first update the declaration's first entry.
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
  return (
    candidate.name === declaration.name &&
    earliest(candidate.incidentUpdates).some((update) => isPostingOf(update, first))
  );
}

/**
 * Whether two definitions without `id` open the same incident: the same name and first
 * message, so opening the second finds (and takes) the one the first opened.
 */
export function opensSameIncident(
  a: { id?: string | undefined; name: string; updates?: readonly DeclaredEntry[] | undefined },
  b: { id?: string | undefined; name: string; updates?: readonly DeclaredEntry[] | undefined },
): boolean {
  const [first, other] = [a.updates?.[0], b.updates?.[0]];
  return (
    a.id === undefined &&
    b.id === undefined &&
    a.name === b.name &&
    first !== undefined &&
    other !== undefined &&
    sameMessage(first.message, other.message)
  );
}

/**
 * What to do before opening the declared incident, given the service's incidents that match
 * it (`isOpeningOf`) and are managed by no other resource. With `intentAt` (when the stack
 * recorded that it was about to create it) a match created since then is its own; without,
 * only a match from the last `RECENT_CREATION_MS` is. An older match still open is refused;
 * an older one resolved is let be.
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
      note: `${what} was opened as ${safeLine(own.id)} at ${safeLine(own.created_at)} by a run that stopped before it could record it; it is taken, not opened again.`,
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
