import { type ClientOptions, createClient, type MonitoringClient } from "../../api";
import {
  declarationOf,
  liveReopenRefusal,
  observe,
  pageChangesOf,
  pageChangesText,
} from "../../incident";
import type { Plan, PolicyFinding } from "../../plan";
import { type EvidenceItem, evidenceLine } from "../../reports/evidence/line";
import { readEvidence } from "../../reports/evidence/read";
import { readCheckNames } from "../../reports/shared/check-names";
import { redact } from "../redact";
import { liveServiceIds, liveServiceMessage } from "./live-services";

export type { EvidenceItem };

/** Where `plan --evidence` reads the monitors, and the time it calls now. */
export interface EvidenceSource {
  readonly connection: ClientOptions;
  readonly now?: Date;
}

/**
 * One evidence line for each incident the plan adds or changes, from what its
 * `evidence` heartbeats and checks say now, so a reviewer can weigh a severity or status
 * change against the monitors. Removed incidents get none.
 */
export async function planEvidence(
  plan: Plan,
  source: EvidenceSource,
): Promise<{ items: EvidenceItem[]; findings: PolicyFinding[] }> {
  const client = createClient(source.connection);
  const now = source.now ?? new Date();
  const changes = plan.changes.filter((change) => change.kind !== "remove");
  // The monitors' names, read once for every line; a list that cannot be read leaves the ids.
  const { names } = await readCheckNames(
    client.checks,
    changes.flatMap(({ after }) => [
      ...(after.evidence?.heartbeats ?? []),
      ...(after.evidence?.checks ?? []),
    ]),
  ).catch(() => ({ names: {} }));
  const items = await Promise.all(
    changes.map(async (change) => ({
      incidentId: change.incidentId,
      name: change.after.name,
      resource: change.resource,
      line: redact(
        evidenceLine(await readEvidence(client, change.after.evidence ?? {}, now), now, names),
        [source.connection.apiKey],
      ),
    })),
  );
  const findings = (
    await Promise.all(
      changes.flatMap((change) => [liveReopen(client, change), pageChange(client, change)]),
    )
  ).flatMap((finding) => (finding ? [finding] : []));
  return { items, findings: [...findings, ...(await unknownServiceFindings(client, changes))] };
}

/**
 * The services an added or changed incident lists that the account does not have: `up`'s PUT
 * would be refused. A services list that cannot be read gives no finding, as a reopen's read.
 */
async function unknownServiceFindings(
  client: MonitoringClient,
  changes: readonly Exclude<Plan["changes"][number], { kind: "remove" }>[],
): Promise<PolicyFinding[]> {
  if (changes.length === 0) return [];
  let known: Set<string>;
  try {
    known = await liveServiceIds(client);
  } catch {
    return [];
  }
  return changes.flatMap((change) =>
    change.after.services
      .filter((service) => !known.has(service.id))
      .map((service) => ({
        level: "error" as const,
        rule: "unknown-service" as const,
        resource: change.resource,
        incidentId: change.incidentId,
        name: change.after.name,
        file: change.file,
        message: liveServiceMessage(service.id, known),
      })),
  );
}

/**
 * The finding `up` would end in: the change declares an open status without `reopen: true`
 * while the status page shows the incident resolved (the live status by the one rule). A read
 * that fails gives no finding; the evidence line says what could not be read.
 */
async function liveReopen(
  client: MonitoringClient,
  change: Exclude<Plan["changes"][number], { kind: "remove" }>,
): Promise<PolicyFinding | undefined> {
  const declared = change.after;
  // A new incident has nothing live to reopen.
  if (declared.id === undefined) return undefined;
  if (declared.status === "RESOLVED" || declared.reopen === true) return undefined;
  let refusal: string | undefined;
  try {
    refusal = liveReopenRefusal(
      { ...declared, id: declared.id },
      await client.incidents.listUpdates(declared.id),
    );
  } catch {
    return undefined;
  }
  if (refusal === undefined) return undefined;
  return {
    level: "error",
    rule: "reopen-live-resolved",
    resource: change.resource,
    incidentId: change.incidentId,
    name: declared.name,
    file: change.file,
    message: refusal,
  };
}

/** The base stands for the last apply, at a time the plan does not know: any change counts. */
const BASE_APPLIED_AT = new Date(0).toISOString();

/**
 * A warning for a changed incident whose name, severity or services the status page shows
 * otherwise than both the base and the change: what the `up` after the merge would put back,
 * old → new (`pageChangesOf`, with the base as the last apply). A read that fails gives none.
 */
async function pageChange(
  client: MonitoringClient,
  change: Exclude<Plan["changes"][number], { kind: "remove" }>,
): Promise<PolicyFinding | undefined> {
  if (change.kind !== "update" || change.after.id === undefined) return undefined;
  const declared = declarationOf(change.after);
  let changes: ReturnType<typeof pageChangesOf>;
  try {
    const incident = await client.incidents.get(change.after.id);
    const applied = { ...declarationOf(change.before), appliedAt: BASE_APPLIED_AT };
    changes = pageChangesOf(
      applied,
      declared,
      observe(incident.incidentUpdates, incident, declared),
    );
  } catch {
    return undefined;
  }
  if (changes === undefined) return undefined;
  return {
    level: "warning",
    rule: "changed-on-status-page",
    resource: change.resource,
    incidentId: change.incidentId,
    file: change.file,
    message: `${pageChangesText(changes)}: the up after the merge puts git's value back (onPageChange: revert), or fails the incident and leaves the page as it is (refuse); take the page's value into this change to keep it.`,
  };
}
