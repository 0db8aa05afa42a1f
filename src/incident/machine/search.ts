import type { IncidentResponse, ListedIncident } from "../../api/schemas";
import { safeLine } from "../../safe-text";
import {
  type CreationCandidate,
  type CreationDecision,
  decideCreation,
  namesakes,
  type Opening,
  openingsAmong,
  unreadableOpeningsMessage,
} from "../creation";
import type { IncidentDeclaration } from "../declaration";
import { type Answer, failureOf, type Step } from "./steps";

/*
 * The search for the incident a definition without `id` opened, among the service's
 * incidents: the list, then a read of each namesake the list gave without its updates. Shared
 * by the opening of an apply and by the removal of an incident claimed and never recorded.
 */

/** A search under way: what the list gave, and the namesakes still to read whole. */
export interface Search {
  openings: Opening[];
  whole: (ListedIncident | IncidentResponse)[];
  toRead: string[];
  unreadable: string[];
  /** The incident the lease's last holder recorded having opened, read whatever the list says. */
  recorded?: string | undefined;
}

/**
 * The search a list answer starts. `recorded`: an incident the lease's record says was opened
 * for this definition, read even when the list omits it (a list may lag behind a create).
 */
export function searchIn(
  listed: Extract<Answer, { kind: "listed" }>,
  openings: Opening[],
  recorded?: string,
): Search {
  const { named, unreadable } = namesakes(listed.incidents, openings, listed.inRun);
  const whole = named.filter((incident) => incident.incidentUpdates !== undefined);
  const toRead = named.flatMap((incident) =>
    incident.incidentUpdates === undefined ? [incident.id] : [],
  );
  const unlisted =
    recorded !== undefined &&
    !listed.inRun.has(recorded) &&
    !whole.some((incident) => incident.id === recorded) &&
    !toRead.includes(recorded);
  if (!unlisted) return { openings, whole, toRead, unreadable };
  return { openings, whole, toRead: [...toRead, recorded], unreadable, recorded };
}

/** The next read of a search, or undefined when every namesake has been read. */
export function nextRead(search: Search): Step | undefined {
  const [incidentId] = search.toRead;
  return incidentId === undefined ? undefined : { kind: "get", incidentId };
}

/** A search after the answer of its read (`nextRead`). */
export function afterRead(search: Search, answer: Answer): Search {
  // Stryker disable next-line StringLiteral: afterRead is only given the answer of a pending read, so toRead is never empty
  const [incidentId = "", ...rest] = search.toRead;
  if (answer.kind === "incident") {
    return { ...search, toRead: rest, whole: [...search.whole, answer.incident] };
  }
  // A recorded incident the service no longer has (deleted) is no namesake at all.
  if (incidentId === search.recorded && answer.kind === "failed" && failureOf(answer).absent) {
    return { ...search, toRead: rest };
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: next() lets only an incident or a failure reach a search's read, and an incident returns before
  const why = answer.kind === "failed" ? answer.text : `answered ${answer.kind}`;
  return {
    ...search,
    toRead: rest,
    unreadable: [...search.unreadable, `${safeLine(incidentId)} (${safeLine(why)})`],
  };
}

/**
 * What a finished search decides: open, take the one found (created since `intentAt`), or
 * refuse; nothing is opened while a namesake cannot be read.
 */
export function searchDecision(
  search: Search,
  declaration: Pick<IncidentDeclaration, "name" | "resource">,
  options: { intentAt: string | undefined; now: number },
): CreationDecision & { incident?: CreationCandidate } {
  if (search.unreadable.length > 0) {
    return { kind: "refuse", message: unreadableOpeningsMessage(declaration, search.unreadable) };
  }
  const matches = openingsAmong(search.whole, search.openings);
  // Stryker disable next-line OptionalChaining: every search seeks at least the declaration's own opening (it has `updates`)
  const first = search.openings[0]?.first;
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: the same: there is always a first entry
  if (first === undefined) return { kind: "create" };
  const decision = decideCreation(declaration, first, matches, options);
  if (decision.kind !== "adopt") return decision;
  return { ...decision, incident: matches.find((match) => match.id === decision.incidentId) };
}
