import {
  type IncidentResponse,
  type IncidentStatus,
  type IncidentUpdate,
  NotFoundError,
  writeOutcomeUnknown,
} from "../src/api";
import {
  type Applying,
  afterPut,
  createRequestOf,
  type DeclaredEntry,
  decideCreation,
  declarationIn,
  droppedEntriesRefusal,
  entriesRecord,
  entryRequest,
  fieldsNeedPut,
  foundNote,
  foundPosted,
  type IncidentDeclaration,
  type IncidentInputs,
  type IncidentRecord,
  incidentLabel,
  lastApplyMs,
  liveBeforeApply,
  missingMessage,
  namesakes,
  nextStatusPut,
  notTaken,
  openingsAmong,
  planEntriesOn,
  recordedEntriesOf,
  requestOf,
  seenUntil,
  takenTwiceMessage,
  unreadableOpeningsMessage,
} from "../src/incident";
import { safeLine } from "../src/safe-text";
import {
  client,
  inPulumiTerms,
  inRun,
  lacksOperation,
  listedIncidents,
  listUpdates,
  type ProviderSession,
  readIncident,
  runOf,
} from "./provider-session";

/*
 * Carrying out an apply: the requests `src/incident` decides on, sent in its order, each write
 * once. Nothing here decides what to send; it sends, reads answers back and reports failures.
 */

/** Create and update: `olds` is the last apply, absent (or claimed) when adopting or opening. */
export function applyIncident(
  session: ProviderSession,
  inputs: IncidentInputs,
  olds: IncidentRecord | undefined,
): Promise<IncidentRecord> {
  const refusal = droppedEntriesRefusal(inputs, olds);
  if (refusal) return Promise.reject(new Error(refusal));
  return inputs.updates === undefined
    ? applyStatus(session, inputs, olds)
    : applyEntries(session, { ...inputs, updates: inputs.updates }, olds);
}

/** Without `updates`: the PUTs `nextStatusPut` decides, each on the answer of the one before. */
async function applyStatus(
  session: ProviderSession,
  inputs: IncidentInputs,
  olds: IncidentRecord | undefined,
): Promise<IncidentRecord> {
  const declaration = {
    ...declarationIn(inputs),
    incidentId: inputs.incidentId ?? olds?.incidentId ?? "",
  };
  let live =
    liveBeforeApply(olds, inputs.observed) ??
    liveBeforeApply(olds, undefined, await listUpdates(session, declaration.incidentId));
  const since = seenUntil(olds, inputs.observed);
  let applied = { appliedAt: "", live, appliedUpdates: [] as IncidentUpdate[] };
  for (let sent = 0; ; sent++) {
    const step = nextStatusPut(declaration, live, sent);
    if (step.kind === "refuse") throw new Error(step.message);
    if (step.kind === "done") break;
    const incident = await put(session, declaration, step.status);
    applied = afterPut(declaration, incident, step.status, since, new Date());
    live = applied.live;
  }
  return { ...declaration, providerVersion: inputs.providerVersion, ...applied };
}

/**
 * PUT name, severity, services and duration (and `status` when given), then check that the
 * service kept them (`notTaken`; the status only with `checkStatus`): a field or status it
 * answers otherwise fails the incident, saying what it kept. `whenMissing` words a 404.
 */
export async function put(
  session: ProviderSession,
  declaration: Applying,
  status: IncidentStatus | undefined,
  whenMissing: (incidentId: string, accountId: string | undefined) => string = missingMessage,
  checkStatus = true,
): Promise<IncidentResponse> {
  let incident: IncidentResponse;
  try {
    incident = await client(session).incidents.update(
      declaration.incidentId,
      requestOf(declaration, { accountId: session.settings?.accountId ?? "", status }),
    );
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new Error(whenMissing(declaration.incidentId, session.settings?.accountId));
    }
    throw await inPulumiTerms(error, declaration.incidentId, session);
  }
  const checked = checkStatus ? status : undefined;
  const refusal = notTaken(declaration.incidentId, declaration, checked, incident);
  if (refusal !== undefined) throw new Error(refusal);
  return incident;
}

/**
 * With `updates`: open the incident when it does not exist yet (or take the one a stopped run
 * opened), PUT the fields when they differ, then carry out the entries' plan in its order.
 */
async function applyEntries(
  session: ProviderSession,
  inputs: IncidentInputs & { updates: DeclaredEntry[] },
  olds: IncidentRecord | undefined,
): Promise<IncidentRecord> {
  let recorded = recordedEntriesOf(olds);
  const posted: IncidentUpdate[] = [];
  const known = inputs.incidentId ?? (olds?.incidentId || undefined);
  let incident: IncidentResponse;
  if (known === undefined) {
    const opened = await openIncident(session, inputs, olds?.intentAt);
    incident = opened.incident;
    if (opened.firstUpdate) {
      recorded = { entries: inputs.updates.slice(0, 1), ids: [opened.firstUpdate.id ?? ""] };
      posted.push(opened.firstUpdate);
    }
  } else {
    incident = await readIncident(session, known);
  }
  const incidentId = known ?? incident.id;
  runOf(session).taken.add(incidentId);
  const declaration = { ...declarationIn(inputs), incidentId, updates: inputs.updates };
  // The opening POST sent the fields already.
  if (posted.length === 0 && fieldsNeedPut(declaration, incident)) {
    incident = await put(session, declaration, undefined);
  }
  const plan = planEntriesOn(declaration, incident, recorded, lastApplyMs(olds));
  if (plan.refusal) throw new Error(plan.refusal);
  const ids = [...recorded.ids];
  for (const action of plan.actions) {
    if (action.kind === "found") {
      ids[action.index] = action.updateId;
      process.stderr.write(
        `incident-sync: ${foundNote(incidentId, action.index, action.updateId)}\n`,
      );
      continue;
    }
    const update =
      action.kind === "edit"
        ? await editEntry(
            session,
            incidentId,
            action.updateId,
            inputs.updates[action.index] as DeclaredEntry,
          )
        : await postEntry(session, incidentId, inputs.updates, action.index, ids);
    ids[action.index] = update.id ?? (action.kind === "edit" ? action.updateId : "");
    posted.push(update);
  }
  return entriesRecord(declaration, inputs.providerVersion, { ids, posted, incident }, new Date());
}

/** Changes a posted entry in place, notifying nobody. */
function editEntry(
  session: ProviderSession,
  incidentId: string,
  updateId: string,
  entry: DeclaredEntry,
): Promise<IncidentUpdate> {
  return client(session)
    .incidents.changeUpdate(incidentId, updateId, entryRequest(entry, { notify: false }))
    .catch(async (error: unknown) => {
      throw await inPulumiTerms(error, incidentId, session);
    });
}

/**
 * Posts entry `index` once: an answer is a post made. When the outcome is unknown, a read takes
 * the entry if it shows it; one not found is not sent again in this run (it may still be made).
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
        `incident ${incidentId}: updates[${index}] was not posted: ${messageOf(cause)}`,
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
 * The service's incidents that are the opening of this declaration, read whole; one that may be
 * it and cannot be read (refused by the contract's schema, or a failed read) stops the opening.
 */
async function openingsOf(
  session: ProviderSession,
  declaration: IncidentDeclaration,
  first: DeclaredEntry,
  fresh: boolean,
) {
  const listed = await listedIncidents(session, fresh);
  const { named, unreadable } = namesakes(listed, declaration, inRun(session));
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
  if (unreadable.length + failed.length > 0) {
    throw new Error(unreadableOpeningsMessage(declaration, [...unreadable, ...failed]));
  }
  const whole = read.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  return openingsAmong(whole, declaration, first);
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
  const look = (fresh: boolean) =>
    openingsOf(session, declaration, first, fresh).catch(async (error: unknown) => {
      throw lacksOperation(error) ?? (await inPulumiTerms(error, name, session));
    });
  const decision = decideCreation(declaration, first, await look(false), {
    intentAt,
    now: Date.now(),
  });
  if (decision.kind === "refuse") throw new Error(decision.message);
  if (decision.kind === "adopt") {
    take(session, decision.incidentId, name);
    process.stderr.write(`incident-sync: ${decision.note}\n`);
    return { incident: await readIncident(session, decision.incidentId) };
  }
  try {
    const incident = await client(session).incidents.create(
      createRequestOf(declaration, first, { accountId: session.settings?.accountId ?? "" }),
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
      take(session, again.incidentId, name);
      return { incident: await readIncident(session, again.incidentId) };
    }
    throw new Error(
      `${name}: the service did not answer the request that opens it (${messageOf(error)}), and does not show it opened. Nothing is sent again in this run; the next run reads again before it opens it.`,
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
  const matches = await openingsOf(session, declaration, first, false);
  const decision = decideCreation(declaration, first, matches, { intentAt, now: Date.now() });
  return decision.kind === "adopt" ? decision.incidentId : undefined;
}

/** Takes an incident for this run's resource `name`, unless another resource took it first. */
function take(session: ProviderSession, incidentId: string, name: string): void {
  const { taken } = runOf(session);
  if (taken.has(incidentId)) throw new Error(takenTwiceMessage(name, incidentId));
  taken.add(incidentId);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
