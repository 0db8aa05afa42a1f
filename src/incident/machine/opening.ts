import type { IncidentResponse } from "../../api/schemas";
import { recordedEntriesOf } from "../apply";
import { openingLease, openingLeases, openingsSought, takenTwiceMessage } from "../creation";
import { createRequestOf, incidentLabel } from "../declaration";
import { type DeclaredEntry, earliest, isPostingOf } from "../entries";
import { createNotFoundMessage, lacksOperationMessage } from "../messages";
import { claimedRecord, declarationIn, type IncidentRecord } from "../record";
import { inWindow, latest, windowEnd } from "../unanswered";
import { type Carried, failed, kept, type Next, refuse, unexpected } from "./context";
import { type Entries, type Known, knownState, type WithEntries } from "./entries";
import { afterRead, nextRead, type Search, searchDecision, searchIn } from "./search";
import type { Answer, Failure } from "./steps";

/*
 * A new incident's opening, under the lease of its definition: look for the incident an
 * earlier run opened (by the identity it has now, and the one its state recorded before the
 * create was sent), take it, or open it once. A create that got no answer is read back at
 * once, and kept in the state when the service does not show it.
 */

/** Looking for the incident a new definition opened, or opening it, under its lease. */
export interface Opening extends Entries {
  phase: "open-lease" | "open-list" | "open-read" | "open-take" | "opening" | "open-services";
  /** When another holder last let go of the lease. */
  releasedAt?: number | undefined;
  /** The incident a holder of the lease recorded having opened: read even if the list omits it. */
  made?: string | undefined;
  /** The leases still to take: the opening as its state recorded it, after an edit. */
  leasing?: string[];
  search?: Search;
  /** When this operation sent a create whose answer never came (ms). */
  sentAt?: number;
  /** The incident found, to take. */
  found?: IncidentResponse;
  /** The create's 404, said once the account's services are checked against those sent. */
  notFound?: Failure;
}

type Moved = Next<Opening | Known>;

export function beginEntries(
  carried: Carried,
  inputs: WithEntries,
  olds: IncidentRecord | undefined,
): Moved {
  const known = inputs.incidentId ?? (olds?.incidentId || undefined);
  if (known === undefined) {
    const recorded = olds && !olds.incidentId ? olds : undefined;
    const [key = openingLease(inputs), ...leasing] = openingLeases(inputs, recorded);
    return {
      state: { ...carried, phase: "open-lease", inputs, olds, leasing },
      step: { kind: "lease", key },
    };
  }
  const state = knownState(carried, inputs, olds, known, recordedEntriesOf(olds));
  return { state, step: { kind: "lease", key: `incident:${known}` } };
}

/** How messages name a new incident until it exists. */
function labelOf(state: Entries): string {
  return incidentLabel(undefined, state.inputs.resource);
}

/** What the state recorded before a create was sent: a claim, or a create never answered. */
function intent(state: Entries): IncidentRecord | undefined {
  return state.olds && !state.olds.incidentId ? state.olds : undefined;
}

export function stepOpening(state: Opening, answer: Answer): Moved {
  const failure = failed(answer);
  switch (state.phase) {
    case "open-lease": {
      if (answer.kind !== "leased") return unexpected(state, answer);
      const heldBack = latest(state.heldBack, answer.unanswered);
      const made = answer.made?.incidentId ?? state.made;
      const releasedAt = Math.max(answer.releasedAt ?? 0, state.releasedAt ?? 0) || undefined;
      const [key, ...leasing] = state.leasing ?? [];
      const leased = { ...state, releasedAt, heldBack, made, leasing };
      if (key !== undefined) return { state: leased, step: { kind: "lease", key } };
      return list(leased, false);
    }
    case "open-list": {
      if (failure) {
        return refuseOpening(state, failure.absent ? lacksOperationMessage(failure) : failure.text);
      }
      if (answer.kind !== "listed") return unexpected(state, answer);
      // Another run let go of the lease after this run's list was read: it may have opened it.
      if (state.releasedAt !== undefined && answer.readAt <= state.releasedAt) {
        return list({ ...state, releasedAt: undefined }, true);
      }
      const openings = openingsSought(state.inputs, intent(state));
      const search = searchIn(answer, openings, state.made);
      return searching({ ...state, search }, answer.at);
    }
    case "open-read":
      if (state.search === undefined) return unexpected(state, answer);
      return searching({ ...state, search: afterRead(state.search, answer) }, answer.at);
    case "open-take": {
      const incident = state.found;
      if (answer.kind !== "took" || incident === undefined) {
        return refuseOpening(state, takenTwiceMessage(labelOf(state), incident?.id ?? ""));
      }
      const recorded = recordedEntriesOf(state.olds);
      const known = knownState(state, state.inputs, state.olds, incident.id, recorded);
      // Leased, then read again: another stack may be posting on it.
      return { state: known, step: { kind: "lease", key: `incident:${incident.id}` } };
    }
    case "opening":
      if (failure?.unknown)
        return list({ ...state, sentAt: answer.at, releasedAt: undefined }, true);
      // The reference documents 404 for a create: an unknown service is a likely cause.
      if (failure?.status === 404) {
        return {
          state: { ...state, phase: "open-services", notFound: failure },
          step: { kind: "services" },
        };
      }
      if (failure) {
        return refuse(state, failure.absent ? lacksOperationMessage(failure) : failure.text);
      }
      if (answer.kind !== "incident") return unexpected(state, answer);
      return opened(state, answer.incident);
    case "open-services": {
      if (state.notFound === undefined) return unexpected(state, answer);
      if (answer.kind !== "services" && !failure) return unexpected(state, answer);
      const known = answer.kind === "services" ? answer.ids : { unread: failure?.text ?? "" };
      return refuse(
        state,
        createNotFoundMessage(state.notFound, {
          label: labelOf(state),
          accountId: state.context.accountId || undefined,
          sent: state.inputs.services.map((service) => service.id),
          known,
        }),
      );
    }
  }
}

/**
 * A refusal of an opening. After a create that got no answer, the create is kept in the state
 * (perhaps still being made) and said, so that no create is sent again within its window.
 */
function refuseOpening(state: Opening, why?: string): Moved {
  const { sentAt } = state;
  if (sentAt === undefined) return refuse(state, why ?? "");
  const unanswered = { entry: 0, at: new Date(sentAt).toISOString() };
  const claim = claimedRecord(state.inputs, new Date(intent(state)?.intentAt ?? unanswered.at));
  const wait = `No create is sent again until the service shows it or until ${windowEnd(unanswered)}: a run before then reads again, and takes the incident if it shows.`;
  const message =
    why === undefined
      ? `${labelOf(state)}: the service did not answer the request that opens it, sent at ${unanswered.at}, and does not show it opened. ${wait}`
      : `${why} The request that opens it, sent at ${unanswered.at}, got no answer: ${wait}`;
  return refuse(state, message, kept({ ...claim, unanswered }));
}

function list(state: Opening, fresh: boolean): Moved {
  return { state: { ...state, phase: "open-list" }, step: { kind: "list", fresh } };
}

/** Reads the namesakes one by one, then decides: open, take, or refuse. */
function searching(state: Opening & { search: Search }, now: number): Moved {
  const read = nextRead(state.search);
  if (read) return { state: { ...state, phase: "open-read" }, step: read };
  const { sentAt } = state;
  const sent = sentAt === undefined ? undefined : new Date(sentAt).toISOString();
  const decision = searchDecision(state.search, state.inputs, {
    intentAt: sent ?? intent(state)?.intentAt,
    now,
  });
  if (decision.kind === "refuse") return refuseOpening(state, decision.message);
  if (decision.kind === "adopt") {
    const note =
      sent === undefined
        ? decision.note
        : `${labelOf(state)}: the request that opens it got no answer, and the service shows it opened as ${decision.incidentId}: it is taken, not opened again.`;
    return {
      state: {
        ...state,
        phase: "open-take",
        notes: [...state.notes, note],
        ...(decision.incident ? { found: decision.incident as IncidentResponse } : {}),
      },
      step: { kind: "take", incidentId: decision.incidentId },
    };
  }
  if (sent !== undefined) return refuseOpening(state);
  const held = state.heldBack?.entry === 0 ? state.heldBack : undefined;
  const unanswered = latest(intent(state)?.unanswered, held);
  if (inWindow(unanswered, now) && unanswered !== undefined) {
    return refuse(
      state,
      `${labelOf(state)}: not opened: the request that opens it, sent at ${unanswered.at}, got no answer, and the service does not show it yet. No create is sent again until the service shows it or until ${windowEnd(unanswered)}; run again then.`,
    );
  }
  const first = state.inputs.updates[0] as DeclaredEntry;
  const body = createRequestOf(declarationIn(state.inputs), first, {
    accountId: state.context.accountId,
  });
  const resource = state.inputs.resource ?? "";
  const sending = { lease: openingLease(state.inputs), entry: 0, resource };
  return {
    state: { ...state, phase: "opening" },
    step: { kind: "open", body, intent: sending },
  };
}

/** The create answered: its first entry rode in its body, posted whether its id came or not. */
function opened(state: Opening, incident: IncidentResponse): Moved {
  const first = state.inputs.updates[0] as DeclaredEntry;
  const shown = earliest(incident.incidentUpdates).find(
    (update) => update.id && isPostingOf(update, first),
  );
  const recorded = { entries: [first], ids: [shown?.id ?? ""] };
  const known = knownState(
    state,
    state.inputs,
    state.olds,
    incident.id,
    recorded,
    shown ? [shown] : [],
  );
  // An answer that lacks what the record needs is read back before anything else is sent.
  const answer = shown === undefined ? {} : { answer: incident };
  return {
    state: { ...known, ...answer, phase: "known-take" },
    step: { kind: "take", incidentId: incident.id },
  };
}
