import {
  ApiError,
  type IncidentResponse,
  type IncidentStatus,
  type IncidentUpdate,
  knownStatus,
  NotFoundError,
  writeOutcomeUnknown,
} from "../src/api";
import {
  type CreationCandidate,
  createRequestOf,
  type DeclaredEntry,
  decideCreation,
  driftedFields,
  entryChanges,
  entryRequest,
  foundPosted,
  type IncidentDeclaration,
  incidentLabel,
  isOpeningOf,
  type LiveStatus,
  liveStatusObserved,
  liveStatusOf,
  planEntries,
  type RecordedEntries,
  reopenMessage,
  reopenRefused,
  requestOf,
  shownStatus,
  statusToSend,
  updateForState,
  updatesAfter,
} from "../src/incident";
import { safeLine } from "../src/safe-text";
import type { IncidentInputs, IncidentState } from "./incident-state";
import {
  client,
  inPulumiTerms,
  lacksOperationMessage,
  listedIncidents,
  missingMessage,
  type ProviderSession,
  readIncident,
  type ServiceIncidents,
  thisRun,
} from "./provider-session";

/*
 * Carrying out an apply: the requests `src/incident` decides on, sent in its order, each write
 * once. A declaration without `updates` has its status set by PUT; one with them tells it
 * through posted entries, and its PUTs never carry a status.
 */

/** Updates an apply keeps in the state for the outputs (those it posted, the newest). */
const APPLIED_UPDATES_LIMIT = 5;

/** Create and update: `olds` is the last apply, absent (or claimed) when adopting or opening. */
export function applyIncident(
  session: ProviderSession,
  inputs: IncidentInputs,
  olds: IncidentState | undefined,
): Promise<IncidentState> {
  if (inputs.updates === undefined) {
    // Posted entries stay on the status page: removing `updates:` is refused as removing one is.
    const posted = olds?.claimed ? [] : (olds?.updates ?? []);
    const [removed] = entryChanges(posted, []).violations;
    if (removed) {
      const label = incidentLabel(inputs.incidentId ?? olds?.incidentId, inputs.resource);
      return Promise.reject(new Error(`incident ${label}: ${removed.message}`));
    }
    return applyStatus(session, inputs, olds);
  }
  return applyEntries(session, { ...inputs, updates: inputs.updates }, olds);
}

/** The declaration an apply records: the inputs without this run's observations. */
function declarationIn(inputs: IncidentInputs): IncidentDeclaration {
  const {
    observed: _o,
    candidates: _c,
    claimOnly: _claim,
    providerVersion: _v,
    ...declared
  } = inputs;
  return declared;
}

/**
 * Without `updates`: PUT the declaration, sending the status only when the live status
 * differs, and never reopening a live RESOLVED the definition does not allow to reopen. When
 * this run could not observe the incident, the live status is read here first.
 *
 * Whether the service's PUT posts a status update or only sets `lastUpdateStatus` is not
 * documented, and with the second the updates can show an older status than the live one. The
 * PUT's answer always holds the live `lastUpdateStatus`: a PUT without a status comes first,
 * the guard is checked against its answer, and only then is an open status sent, in a second
 * PUT. The apply converges in one run under either behaviour and never reopens blindly.
 */
async function applyStatus(
  session: ProviderSession,
  inputs: IncidentInputs,
  olds: IncidentState | undefined,
): Promise<IncidentState> {
  const incidentId = inputs.incidentId ?? olds?.incidentId ?? "";
  const applied = olds?.appliedAt ? { status: olds.status, at: olds.appliedAt } : undefined;
  let live = liveStatusObserved(inputs.observed, applied);
  if (!live) {
    const updates = await listUpdates(session, incidentId);
    live = liveStatusOf(updates, applied);
  }
  if (reopenRefused(live.status, inputs.status, inputs.reopen)) {
    throw new Error(reopenMessage(incidentId, inputs.status, live));
  }
  const { observed } = inputs;
  const seenUntil = observed?.kind === "read" ? (observed.newestAt ?? "") : (olds?.appliedAt ?? "");
  const declaration = { ...declarationIn(inputs), incidentId };
  // An open status is sent only after a PUT without one has shown the live status: the
  // updates may be older than the truth (a PUT that only sets the field posts none), and
  // sending it blindly could reopen an incident resolved that way. RESOLVED reopens nothing.
  const first = statusToSend(inputs.status, live) === "RESOLVED" ? "RESOLVED" : undefined;
  let result = await put(session, declaration, first, seenUntil);
  const answered = result.live.status;
  if (answered !== inputs.status) {
    const fromAnswer: LiveStatus = { status: answered, source: "applied" };
    if (reopenRefused(answered, inputs.status, inputs.reopen)) {
      throw new Error(reopenMessage(incidentId, inputs.status, fromAnswer));
    }
    result = await put(session, declaration, inputs.status, seenUntil);
  }
  return { ...declaration, providerVersion: inputs.providerVersion, ...result };
}

/** One PUT of the declaration (with `status`, or leaving the live one), and what it answered. */
export async function put(
  session: ProviderSession,
  declaration: IncidentDeclaration & { incidentId: string },
  status: IncidentStatus | undefined,
  seenUntil: string,
  whenMissing: (incidentId: string, session: ProviderSession) => string = missingMessage,
): Promise<Pick<IncidentState, "appliedAt" | "live" | "appliedUpdates">> {
  const incident = await putFields(session, declaration, status, whenMissing);
  const appliedAt = incident.updated_at ?? new Date().toISOString();
  // A status the service added since is not one the rules can compare: the declared one
  // that was sent (or kept) stands for it, and the next read shows the value as it is.
  const answered = knownStatus(incident.lastUpdateStatus) ?? status ?? declaration.status;
  return {
    appliedAt,
    live: { status: answered, at: appliedAt, source: "applied" },
    appliedUpdates: updatesAfter(incident.incidentUpdates, seenUntil)
      .slice(0, APPLIED_UPDATES_LIMIT)
      .map(updateForState),
  };
}

/**
 * PUT name, severity, services and duration (and `status` when given), then check that the
 * service kept them: a field it answers otherwise fails the incident, saying what it kept.
 */
async function putFields(
  session: ProviderSession,
  declaration: IncidentDeclaration & { incidentId: string },
  status: IncidentStatus | undefined,
  whenMissing: (incidentId: string, session: ProviderSession) => string = missingMessage,
): Promise<IncidentResponse> {
  const accountId = session.settings?.accountId ?? "";
  let incident: IncidentResponse;
  try {
    incident = await client(session).incidents.update(
      declaration.incidentId,
      requestOf(declaration, { accountId, status }),
    );
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new Error(whenMissing(declaration.incidentId, session));
    }
    throw await inPulumiTerms(error, declaration.incidentId, session);
  }
  const kept = driftedFields(declaration, incident);
  if (kept.length > 0) {
    const shown = kept.map((field) =>
      field === "services"
        ? `services ${incident.services.map((service) => service.id).join(", ")}`
        : `${field} ${JSON.stringify(incident[field])}`,
    );
    throw new Error(
      `incident ${declaration.incidentId}: the service answered the PUT with ${shown.join(" and ")}, not what was sent; it did not take the change. The next run sends it again; if it keeps refusing, change it on the status page or ask the service why.`,
    );
  }
  return incident;
}

/**
 * With `updates`: open the incident when it does not exist yet (or take the one a stopped run
 * opened), PUT the fields when they differ, then carry out the entries' plan: edits in place,
 * then each new entry posted once, in order.
 */
async function applyEntries(
  session: ProviderSession,
  inputs: IncidentInputs & { updates: DeclaredEntry[] },
  olds: IncidentState | undefined,
): Promise<IncidentState> {
  const declared = inputs.updates;
  const adopting = olds === undefined || olds.claimed === true;
  let recorded: RecordedEntries =
    !adopting && olds?.updateIds
      ? { entries: olds.updates ?? [], ids: [...olds.updateIds] }
      : { entries: [], ids: [] };
  const posted: IncidentUpdate[] = [];
  let incidentId = inputs.incidentId ?? (olds?.incidentId || undefined);
  let incident: IncidentResponse;
  let sentFields = false;
  if (incidentId === undefined) {
    const opened = await openIncident(session, inputs, olds?.intentAt);
    incident = opened.incident;
    incidentId = incident.id;
    if (opened.firstUpdate) {
      recorded = { entries: declared.slice(0, 1), ids: [opened.firstUpdate.id ?? ""] };
      posted.push(opened.firstUpdate);
      sentFields = true;
    }
  } else {
    incident = await readIncident(session, incidentId);
  }
  thisRun.taken.add(incidentId);
  const declaration = { ...declarationIn(inputs), incidentId };
  const label = incidentLabel(incidentId);
  // A PUT only when the status page shows other fields than declared: it never carries the
  // status, which the entries tell.
  if (!sentFields && fieldsOff(declaration, incident)) {
    incident = await putFields(session, declaration, undefined);
  }
  const plan = planEntries(declared, {
    recorded,
    live: { status: shownStatus(incident), updates: incident.incidentUpdates },
    reopen: inputs.reopen,
    appliedAt: adopting ? undefined : Date.parse(olds?.appliedAt ?? "") || undefined,
  });
  if (plan.refusal) throw new Error(`incident ${label}: ${plan.refusal}`);
  const ids = [...recorded.ids];
  const api = client(session).incidents;
  for (const action of plan.actions) {
    const entry = declared[action.index] as DeclaredEntry;
    if (action.kind === "found") {
      ids[action.index] = action.updateId;
      process.stderr.write(
        `incident-sync: incident ${label}: updates[${action.index}] is on the status page already (update ${safeLine(action.updateId)}), posted before its id could be recorded; it is recorded, not posted again.\n`,
      );
      continue;
    }
    const update =
      action.kind === "edit"
        ? await api
            .changeUpdate(incidentId, action.updateId, entryRequest(entry, { notify: false }))
            .catch(async (error: unknown) => {
              throw await inPulumiTerms(error, incidentId as string, session);
            })
        : await postEntry(session, incidentId, declared, action.index, ids);
    ids[action.index] = update.id ?? (action.kind === "edit" ? action.updateId : "");
    posted.push(update);
  }
  const appliedAt = newestTime(posted) ?? incident.updated_at ?? new Date().toISOString();
  const status = declared.at(-1)?.status ?? inputs.status;
  return {
    ...declaration,
    providerVersion: inputs.providerVersion,
    appliedAt,
    live: { status, at: appliedAt, source: "applied" },
    appliedUpdates: posted.slice(-APPLIED_UPDATES_LIMIT).map(updateForState),
    updateIds: ids,
  };
}

/** Whether the incident shows another name, severity, services or declared duration. */
function fieldsOff(declaration: IncidentDeclaration, incident: IncidentResponse): boolean {
  if (driftedFields(declaration, incident).length > 0) return true;
  return declaration.duration !== undefined && (incident.duration ?? null) !== declaration.duration;
}

/** The latest posting time among `updates`, as the service gave it. */
function newestTime(updates: readonly IncidentUpdate[]): string | undefined {
  const times = updates.flatMap((update) => (update.created_at ? [update.created_at] : []));
  return times.sort().at(-1);
}

/**
 * Posts entry `index` once. An answer is a post made, even one that names no id (a read then
 * learns it). When the service may have posted it without saying so (a timeout, a 5xx), the
 * incident is read: an entry found is taken; one not found is not sent again in this run, as
 * the service may still be making it, and the next run reads before it posts.
 */
async function postEntry(
  session: ProviderSession,
  incidentId: string,
  declared: readonly DeclaredEntry[],
  index: number,
  knownIds: readonly string[],
): Promise<IncidentUpdate> {
  const entry = declared[index] as DeclaredEntry;
  let answer: IncidentUpdate | undefined;
  try {
    answer = await client(session).incidents.postUpdate(
      incidentId,
      entryRequest(entry, { notify: entry.notify }),
    );
    if (answer.id) return answer;
  } catch (error) {
    if (!writeOutcomeUnknown(error)) {
      const cause = await inPulumiTerms(error, incidentId, session);
      throw new Error(
        `incident ${incidentId}: updates[${index}] was not posted: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
    }
  }
  const incident = await readIncident(session, incidentId);
  const known = new Set(knownIds.filter(Boolean));
  const id = foundPosted(declared, [index], incident.incidentUpdates, { known }).get(index);
  const found = incident.incidentUpdates.find((update) => update.id === id);
  if (found) return found;
  if (answer) return answer;
  throw new Error(
    `incident ${incidentId}: updates[${index}] may not have been posted: the service did not answer the post, and does not show it yet. Nothing is sent again in this run, as the service may still be posting it; the next run reads again before it posts.`,
  );
}

/**
 * The service's incidents that may be the opening of this declaration, with their updates.
 * One of its name that cannot be read (an entry the contract's schema refused, or a failed
 * read) may be it: then nothing is opened, and the error says which.
 */
async function openingsOf(
  session: ProviderSession,
  declaration: IncidentDeclaration,
  first: DeclaredEntry,
  listed: ServiceIncidents,
): Promise<CreationCandidate[]> {
  const free = (id: string | undefined) =>
    id === undefined || (!thisRun.taken.has(id) && !thisRun.declared.has(id));
  const unreadable = listed.skipped.filter(
    (entry) => (entry.name === undefined || entry.name === declaration.name) && free(entry.id),
  );
  const named = listed.entries.filter(
    (incident) => incident.name === declaration.name && free(incident.id),
  );
  const read = await Promise.allSettled(
    named.map((incident) =>
      incident.incidentUpdates === undefined ? readIncident(session, incident.id) : incident,
    ),
  );
  const failed = read.flatMap((result, at) =>
    result.status === "rejected"
      ? [`${safeLine(named[at]?.id)} (${safeLine(messageOf(result.reason))})`]
      : [],
  );
  if (unreadable.length > 0 || failed.length > 0) {
    const which = [
      ...unreadable.map(
        (entry) => `${safeLine(entry.id ?? `entry ${entry.index}`)} (${safeLine(entry.problem)})`,
      ),
      ...failed,
    ];
    throw new Error(
      `${incidentLabel(undefined, declaration.resource)}: not opened: the service lists incidents that may be this one, opened by a run that stopped before it could record it, and cannot be read: ${which.join(", ")}. Nothing is sent until they can be read; if one of them is this incident, add its id to the definition.`,
    );
  }
  return read.flatMap((result) => {
    if (result.status !== "fulfilled") return [];
    const { incidentUpdates } = result.value;
    if (incidentUpdates === undefined) return [];
    const candidate = { ...result.value, incidentUpdates };
    return isOpeningOf(candidate, declaration, first) ? [candidate] : [];
  });
}

/**
 * Opens a new incident with its first entry, unless the service shows that an earlier run
 * opened it (then it is taken instead). A create whose outcome is unknown is looked for again
 * in a fresh read; it is never sent twice. `firstUpdate` is set when this call opened it.
 */
async function openIncident(
  session: ProviderSession,
  inputs: IncidentInputs & { updates: DeclaredEntry[] },
  intentAt: string | undefined,
): Promise<{ incident: IncidentResponse; firstUpdate?: IncidentUpdate }> {
  const declaration = declarationIn(inputs);
  const first = inputs.updates[0] as DeclaredEntry;
  const name = incidentLabel(undefined, inputs.resource);
  const look = async (fresh: boolean) => {
    if (fresh) session.incidents = undefined;
    try {
      return await openingsOf(session, declaration, first, await listedIncidents(session));
    } catch (error) {
      throw lacksOperation(error) ?? (await inPulumiTerms(error, name, session));
    }
  };
  const decision = decideCreation(declaration, first, await look(false), {
    intentAt,
    now: Date.now(),
  });
  if (decision.kind === "refuse") throw new Error(decision.message);
  if (decision.kind === "adopt") {
    take(decision.incidentId, name);
    process.stderr.write(`incident-sync: ${decision.note}\n`);
    return { incident: await readIncident(session, decision.incidentId) };
  }
  const accountId = session.settings?.accountId ?? "";
  try {
    const incident = await client(session).incidents.create(
      createRequestOf(declaration, first, { accountId }),
    );
    const firstUpdate = incident.incidentUpdates.find((update) => update.id);
    return firstUpdate ? { incident, firstUpdate } : { incident };
  } catch (error) {
    if (!writeOutcomeUnknown(error)) {
      throw lacksOperation(error) ?? (await inPulumiTerms(error, name, session));
    }
    const since = new Date(Date.now() - 60_000).toISOString();
    const again = decideCreation(declaration, first, await look(true), {
      intentAt: since,
      now: Date.now(),
    });
    if (again.kind === "adopt") {
      take(again.incidentId, name);
      return { incident: await readIncident(session, again.incidentId) };
    }
    throw new Error(
      `${name}: the service did not answer the request that opens it (${error instanceof Error ? error.message : String(error)}), and does not show it opened. Nothing is sent again in this run; the next run reads again before it opens it.`,
    );
  }
}

/**
 * The incident a stopped run opened for a new incident claimed at `intentAt` and never
 * recorded, if the service shows one: what a removal of its definition must still resolve.
 */
export async function findOpened(
  session: ProviderSession,
  declaration: IncidentDeclaration & { updates: DeclaredEntry[] },
  intentAt: string | undefined,
): Promise<string | undefined> {
  const first = declaration.updates[0];
  if (first === undefined) return undefined;
  const matches = await openingsOf(session, declaration, first, await listedIncidents(session));
  const decision = decideCreation(declaration, first, matches, { intentAt, now: Date.now() });
  return decision.kind === "adopt" ? decision.incidentId : undefined;
}

/** Takes an incident for this run's resource `name`, unless another resource took it first. */
function take(incidentId: string, name: string): void {
  if (thisRun.taken.has(incidentId)) {
    throw new Error(
      `${name}: incident ${safeLine(incidentId)}, opened by a run that stopped before it could record it, is taken by another definition of this stack with the same name and first message. Give one of them another first message.`,
    );
  }
  thisRun.taken.add(incidentId);
}

/** A 404 or 405 from an operation beyond the spec: the service does not have it. */
function lacksOperation(error: unknown): Error | undefined {
  return error instanceof ApiError && (error.status === 404 || error.status === 405)
    ? new Error(lacksOperationMessage(error))
    : undefined;
}

async function listUpdates(session: ProviderSession, incidentId: string) {
  try {
    return await client(session).incidents.listUpdates(incidentId);
  } catch (error) {
    throw await inPulumiTerms(error, incidentId, session);
  }
}

export { listUpdates };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
