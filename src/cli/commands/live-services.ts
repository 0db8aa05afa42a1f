import type { MonitoringClient } from "../../api";
import {
  type DefinitionProblem,
  type LoadedDefinition,
  unknownServiceMessage,
  unknownServices,
} from "../../definitions";

/** Where a live check looks for a service, as a problem names it. */
export const LIVE_SERVICES = "the account's services list";

/**
 * The ids of every service the account has, through the services list, page by page. An entry
 * the contract refuses still names a service when it has an id: it counts.
 */
export async function liveServiceIds(client: MonitoringClient): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const page of client.services.pages()) {
    for (const service of page.entries) ids.add(service.id);
    for (const skipped of page.skipped) if (skipped.id !== undefined) ids.add(skipped.id);
  }
  return ids;
}

const ADVICE = () =>
  "A PUT naming it would be refused: correct the id (incident-sync import lists them all).";

/** Every service the definitions list that the account does not have, each at its place. */
export function liveServiceProblems(
  definitions: readonly LoadedDefinition[],
  known: ReadonlySet<string>,
): DefinitionProblem[] {
  return unknownServices(definitions, known, LIVE_SERVICES, ADVICE);
}

/** Why one service id is not the account's, as `liveServiceProblems` says it. */
export function liveServiceMessage(id: string, known: ReadonlySet<string>): string {
  return unknownServiceMessage(id, known, LIVE_SERVICES, ADVICE);
}
