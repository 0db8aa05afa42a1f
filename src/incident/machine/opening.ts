import type { IncidentResponse } from "../../api/schemas";
import { safeLine } from "../../safe-text";
import { recordedEntriesOf } from "../apply";
import {
  isOpeningOf,
  openingLease,
  openingLeases,
  openingOf,
  openingsSought,
  takenTwiceMessage,
} from "../creation";
import { createRequestOf, incidentLabel } from "../declaration";
import { type DeclaredEntry, earliest, isPostingOf } from "../entries";
import { createNotFoundMessage, lacksOperationMessage } from "../messages";
import { pageChangeRefusalBeforeApply } from "../page-change";
import { claimedRecord, declarationIn, type IncidentRecord } from "../record";
import {
  inWindow,
  latest,
  type Moment,
  type Monotonic,
  THROTTLED_WRITES_MAX,
  unansweredAt,
  windowEnd,
} from "../unanswered";
import { type Carried, failed, kept, type Next, refuse, unexpected } from "./context";
import { type Entries, type Known, knownState, type WithEntries } from "./entries";
import { afterRead, nextRead, type Search, searchDecision, searchIn } from "./search";
import type { Answer, Failure } from "./steps";

/*
 * A new incident's opening, under the lease of its definition: look for the incident an
 * earlier run opened (by the identity it has now, and the one its state recorded before the
 * create was sent), take it, or open it once. A create that got no answer, or one that is not
 * the incident sent, is read back at once, and kept in the state when the service does not
 * show it; one answered 429 is read back before it is sent again.
 */

/** Looking for the incident a new definition opened, or opening it, under its lease. */
export interface Opening extends Entries {
  phase:
    | "open-lease"
    | "open-list"
    | "open-read"
    | "open-take"
    | "opening"
    | "open-confirm"
    | "open-services";
  /** When another holder last let go of the lease. */
  releasedAt?: number | undefined;
  /** The incident a holder of the lease recorded having opened: read even if the list omits it. */
  made?: string | undefined;
  /** The leases still to take: the opening as its state recorded it, after an edit. */
  leasing?: string[];
  search?: Search;
  /** When the list the search is made on began to be read, and when its answer came. */
  listed?: { readAt: number; answered: Moment };
  /** When this operation sent a create whose answer never came, or was not what was sent (ms). */
  sentAt?: number;
  sentClock?: Monotonic | undefined;
  /** When this operation's last create answered 429 was sent (ms), and how many did. */
  throttledAt?: number;
  throttledClock?: Monotonic | undefined;
  throttled?: number;
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
    // Stryker disable next-line ConditionalExpression: only reached when olds records no incident id, so the test always holds
    const recorded = olds && !olds.incidentId ? olds : undefined;
    const [key = openingLease(inputs), ...leasing] = openingLeases(inputs, recorded);
    return {
      state: { ...carried, phase: "open-lease", inputs, olds, leasing },
      step: { kind: "lease", key },
    };
  }
  const state = knownState(carried, inputs, olds, known, recordedEntriesOf(olds));
  const refusal = pageChangeRefusalBeforeApply(olds, inputs, carried.context.onPageChange);
  if (refusal) return refuse(state, refusal);
  return { state, step: { kind: "lease", key: `incident:${known}` } };
}

/** How messages name a new incident until it exists. */
function labelOf(state: Entries): string {
  return incidentLabel(undefined, state.inputs.resource);
}

/** What the state recorded before a create was sent: a claim, or a create never answered. */
function intent(state: Entries): IncidentRecord | undefined {
  // Stryker disable next-line ConditionalExpression: an opening's olds never record an incident id, so the test always holds
  return state.olds && !state.olds.incidentId ? state.olds : undefined;
}

export function stepOpening(state: Opening, answer: Answer): Moved {
  const failure = failed(answer);
  switch (state.phase) {
    case "open-lease": {
      // Stryker disable next-line ConditionalExpression: next() lets only a leased answer reach open-lease
      if (answer.kind !== "leased") return unexpected(state, answer);
      const heldBack = latest(state.heldBack, answer.unanswered);
      const made = answer.made?.incidentId ?? state.made;
      const releasedAt = Math.max(answer.releasedAt ?? 0, state.releasedAt ?? 0) || undefined;
      // Stryker disable next-line ArrayDeclaration: beginEntries always sets leasing
      const [key, ...leasing] = state.leasing ?? [];
      const leased = { ...state, releasedAt, heldBack, made, leasing };
      if (key !== undefined) return { state: leased, step: { kind: "lease", key } };
      return list(leased, false);
    }
    case "open-list": {
      if (failure) {
        // A create answered 429 and not read since may have been made all the same.
        const { sentAt = state.throttledAt, throttledClock } = state;
        const sentClock = state.sentAt === undefined ? throttledClock : state.sentClock;
        const why = failure.absent ? lacksOperationMessage(failure) : failure.text;
        // Stryker disable next-line ConditionalExpression: spreading an undefined sentAt leaves refuseOpening where it was
        const sent = sentAt === undefined ? {} : { sentAt, sentClock };
        return refuseOpening({ ...state, ...sent }, why);
      }
      // Stryker disable next-line ConditionalExpression: next() lets only a list or a failure reach open-list
      if (answer.kind !== "listed") return unexpected(state, answer);
      // Another run let go of the lease after this run's list was read: it may have opened it.
      if (state.releasedAt !== undefined && answer.readAt <= state.releasedAt) {
        return list({ ...state, releasedAt: undefined }, true);
      }
      const search = searchIn(answer, openingsSought(state.inputs, intent(state)), state.made);
      const listed = { readAt: answer.readAt, answered: { at: answer.at, clock: answer.clock } };
      return searching({ ...state, search, listed }, answer);
    }
    case "open-read":
      // Stryker disable next-line ConditionalExpression: open-read is entered with its search only
      if (state.search === undefined) return unexpected(state, answer);
      return searching({ ...state, search: afterRead(state.search, answer) }, answer);
    case "open-take": {
      const incident = state.found;
      // Stryker disable next-line ConditionalExpression: an adoption always sets the incident found
      if (answer.kind !== "took" || incident === undefined) {
        // Stryker disable next-line OptionalChaining,StringLiteral: an adoption always sets the incident found
        return refuseOpening(state, takenTwiceMessage(labelOf(state), incident?.id ?? ""));
      }
      const recorded = recordedEntriesOf(state.olds);
      const known = knownState(state, state.inputs, state.olds, incident.id, recorded);
      // Leased, then read again: another stack may be posting on it.
      return { state: known, step: { kind: "lease", key: `incident:${incident.id}` } };
    }
    case "opening":
      if (failure?.unknown) return unknownOutcome(state, answer);
      if (failure?.throttled && (state.throttled ?? 0) < THROTTLED_WRITES_MAX) {
        const throttled = (state.throttled ?? 0) + 1;
        const at = { throttledAt: answer.at, throttledClock: answer.clock };
        return list({ ...state, ...at, throttled, releasedAt: undefined }, true);
      }
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
      // Stryker disable next-line ConditionalExpression: next() lets only an incident or a failure reach opening
      if (answer.kind !== "incident") return unexpected(state, answer);
      return answered(state, answer.incident, answer);
    case "open-confirm": {
      const sent = { at: state.sentAt ?? answer.at, clock: state.sentClock };
      const { found } = state;
      // Stryker disable next-line ConditionalExpression: open-confirm is entered with the incident found only
      if (answer.kind !== "incident" || found === undefined) return unknownOutcome(state, sent);
      const { sentAt: _at, sentClock: _clock, ...rest } = state;
      const same = answer.incident.id === found.id && isOpeningSent(state, answer.incident);
      // Stryker disable next-line StringLiteral: opened() moves the state on to known-take whatever its phase
      if (same) return opened({ ...rest, phase: "opening" }, answer.incident);
      return unknownOutcome(notAsSent(state, answer.incident), sent);
    }
    case "open-services": {
      // Stryker disable next-line ConditionalExpression: open-services is entered with its 404 only
      if (state.notFound === undefined) return unexpected(state, answer);
      // Stryker disable next-line ConditionalExpression: next() lets only the services or a failure reach open-services
      if (answer.kind !== "services" && !failure) return unexpected(state, answer);
      // Stryker disable next-line OptionalChaining,StringLiteral: only a failure gets here
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
function refuseOpening(state: Opening, why?: string, now?: Moment): Moved {
  const { sentAt } = state;
  // Stryker disable next-line StringLiteral: every refusal without a create sent says why
  if (sentAt === undefined) return refuse(state, why ?? "");
  const unanswered = unansweredAt(0, { at: sentAt, clock: state.sentClock });
  const claim = claimedRecord(state.inputs, new Date(intent(state)?.intentAt ?? unanswered.at));
  const wait = `No create is sent again until the service shows it or until ${windowEnd(unanswered, now)}: a run before then reads again, and takes the incident if it shows.`;
  const message =
    why === undefined
      ? `${labelOf(state)}: the service did not answer the request that opens it, sent at ${unanswered.at}, and does not show it opened. ${wait}`
      : `${why} The request that opens it, sent at ${unanswered.at}, got no answer: ${wait}`;
  return refuse(state, message, kept({ ...claim, unanswered }));
}

function list(state: Opening, fresh: boolean): Moved {
  return { state: { ...state, phase: "open-list" }, step: { kind: "list", fresh } };
}

/** A create that may have been made, or not: the service's list says, read afresh. */
function unknownOutcome(state: Opening, sent: Moment): Moved {
  return list({ ...state, sentAt: sent.at, sentClock: sent.clock, releasedAt: undefined }, true);
}

/** Whether an incident is the one this operation's create sent: its name and first entry. */
function isOpeningSent(state: Opening, incident: IncidentResponse): boolean {
  const opening = openingOf(state.inputs);
  return opening !== undefined && isOpeningOf(incident, opening);
}

/**
 * A create answered: taken when the answer is the incident sent; read by its id first when
 * the answer shows no update to tell; another incident is an unknown outcome, never taken.
 */
function answered(state: Opening, incident: IncidentResponse, sent: Moment): Moved {
  if (incident.name !== state.inputs.name) return unknownOutcome(notAsSent(state, incident), sent);
  if (incident.incidentUpdates.length === 0) {
    return {
      state: {
        ...state,
        phase: "open-confirm",
        found: incident,
        sentAt: sent.at,
        sentClock: sent.clock,
      },
      step: { kind: "get", incidentId: incident.id },
    };
  }
  if (isOpeningSent(state, incident)) return opened(state, incident);
  return unknownOutcome(notAsSent(state, incident), sent);
}

function notAsSent(state: Opening, incident: IncidentResponse): Opening {
  const note = `${labelOf(state)}: the request that opens it was answered with incident ${safeLine(incident.id)} ("${safeLine(incident.name)}"), which is not the incident sent: it is not taken, and the service's incidents are read to learn whether it was opened.`;
  return { ...state, notes: [...state.notes, note] };
}

/** Reads the namesakes one by one, then decides: open, take, or refuse. */
function searching(state: Opening & { search: Search }, now: Moment): Moved {
  const read = nextRead(state.search);
  if (read) return { state: { ...state, phase: "open-read" }, step: read };
  const { sentAt, throttledAt } = state;
  const sent = sentAt === undefined ? undefined : new Date(sentAt).toISOString();
  const throttled = throttledAt === undefined ? undefined : new Date(throttledAt).toISOString();
  const decision = searchDecision(state.search, state.inputs, {
    intentAt: sent ?? throttled ?? intent(state)?.intentAt,
    now: now.at,
  });
  if (decision.kind === "refuse") return refuseOpening(state, decision.message, now);
  if (decision.kind === "adopt") {
    const how = sent === undefined ? "was answered 429" : "got no answer";
    const note =
      sent === undefined && throttled === undefined
        ? decision.note
        : `${labelOf(state)}: the request that opens it ${how}, and the service shows it opened as ${decision.incidentId}: it is taken, not opened again.`;
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
  if (sent !== undefined) return refuseOpening(state, undefined, now);
  const held = state.heldBack?.entry === 0 ? state.heldBack : undefined;
  const unanswered = latest(intent(state)?.unanswered, held);
  // The list must have been read once the window had passed, by every clock, to show nothing.
  // Stryker disable next-line ObjectLiteral: a search is always made on a list, which sets listed
  const { readAt, answered } = state.listed ?? { readAt: now.at, answered: now };
  const early = inWindow(unanswered, answered) || inWindow(unanswered, { at: readAt });
  // Stryker disable next-line ConditionalExpression: early implies a write held; the test narrows the type
  if (early && unanswered !== undefined) {
    return refuse(
      state,
      `${labelOf(state)}: not opened: the request that opens it, sent at ${unanswered.at}, got no answer, and the service does not show it yet. No create is sent again until the service shows it or until ${windowEnd(unanswered, now)}; run again then.`,
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
