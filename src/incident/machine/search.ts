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
import type { Answer, Step } from "./steps";

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
}

/** The search a list answer starts. */
export function searchIn(listed: Extract<Answer, { kind: "listed" }>, openings: Opening[]): Search {
  const { named, unreadable } = namesakes(listed.incidents, openings, listed.inRun);
  return {
    openings,
    whole: named.filter((incident) => incident.incidentUpdates !== undefined),
    toRead: named.flatMap((incident) =>
      incident.incidentUpdates === undefined ? [incident.id] : [],
    ),
    unreadable,
  };
}

/** The next read of a search, or undefined when every namesake has been read. */
export function nextRead(search: Search): Step | undefined {
  const [incidentId] = search.toRead;
  return incidentId === undefined ? undefined : { kind: "get", incidentId };
}

/** A search after the answer of its read (`nextRead`). */
export function afterRead(search: Search, answer: Answer): Search {
  const [incidentId = "", ...rest] = search.toRead;
  if (answer.kind === "incident") {
    return { ...search, toRead: rest, whole: [...search.whole, answer.incident] };
  }
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
  const first = search.openings[0]?.first;
  if (first === undefined) return { kind: "create" };
  const decision = decideCreation(declaration, first, matches, options);
  if (decision.kind !== "adopt") return decision;
  return { ...decision, incident: matches.find((match) => match.id === decision.incidentId) };
}
