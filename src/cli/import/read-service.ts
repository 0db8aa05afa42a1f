import {
  type MonitoringClient,
  NotFoundError,
  RequestValidationError,
  type Service,
  type StatusPage,
} from "../../api";
import type { ListedIncident } from "../../api/schemas";
import type { ImportRead } from "./import-plan";

/** What reading said as it went, for a progress line. */
export interface ReadProgress {
  /** The list of `what` has `count` items in `pages` pages so far; `done` once read whole. */
  readonly list: (what: string, count: number, pages: number, done: boolean) => void;
  /** `count` of the `total` incidents listed without their updates are read on their own. */
  readonly each: (count: number, total: number, done: boolean) => void;
}

/** What the service showed, and what of it could not be read as the contract says. */
export interface ServiceRead extends ImportRead {
  /** Incidents whose entry or updates could not be read: why, by id. */
  readonly unreadable: {
    readonly incidentId: string;
    readonly name: string;
    readonly reason: string;
  }[];
  /** Services and status pages left out, said in a sentence each. */
  readonly notes: string[];
}

/**
 * Reads every service, status page and incident of the account, a page at a time; an incident
 * listed without its updates (a lean answer) is read on its own. Sends nothing but reads.
 */
export async function readService(
  client: MonitoringClient,
  progress: ReadProgress,
): Promise<ServiceRead> {
  const notes: string[] = [];
  const services: Service[] = [];
  let pages = 0;
  for await (const page of client.services.pages()) {
    services.push(...page.entries);
    for (const skipped of page.skipped) {
      notes.push(
        `A service the services list shows is not one the contract allows (${skipped.id ?? "no id"}): ${skipped.problem}`,
      );
    }
    progress.list("services", services.length, ++pages, false);
  }
  progress.list("services", services.length, pages, true);
  const statusPages: StatusPage[] = [];
  pages = 0;
  for await (const page of client.statusPages.pages()) {
    statusPages.push(...page.entries);
    for (const skipped of page.skipped) {
      notes.push(
        `A status page the list shows is not one the contract allows (${skipped.id ?? "no id"}): ${skipped.problem}`,
      );
    }
    progress.list("status pages", statusPages.length, ++pages, false);
  }
  progress.list("status pages", statusPages.length, pages, true);
  const listed: ListedIncident[] = [];
  const unreadable: ServiceRead["unreadable"][number][] = [];
  pages = 0;
  for await (const page of client.incidents.pages()) {
    listed.push(...page.entries);
    for (const skipped of page.skipped) {
      unreadable.push({
        incidentId: skipped.id ?? `(entry ${skipped.index + 1} of page ${pages + 1})`,
        name: skipped.name ?? "",
        reason: `the incident list shows it in a shape the contract does not allow: ${skipped.problem}`,
      });
    }
    progress.list("incidents", listed.length, ++pages, false);
  }
  progress.list("incidents", listed.length, pages, true);
  const incidents: ImportRead["incidents"][number][] = [];
  const withoutUpdates = listed.filter((incident) => incident.incidentUpdates === undefined);
  let read = 0;
  for (const incident of listed) {
    if (incident.incidentUpdates !== undefined) {
      incidents.push({ ...incident, incidentUpdates: incident.incidentUpdates });
      continue;
    }
    progress.each(++read, withoutUpdates.length, false);
    try {
      incidents.push(await client.incidents.get(incident.id));
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof RequestValidationError)) throw error;
      unreadable.push({
        incidentId: incident.id,
        name: incident.name,
        reason:
          error instanceof NotFoundError
            ? "it was listed without its updates, and is gone when read"
            : "it was listed without its updates, and its id cannot be read on its own",
      });
    }
  }
  if (withoutUpdates.length > 0) {
    progress.each(read, withoutUpdates.length, true);
  }
  return { services, statusPages, incidents, unreadable, notes };
}
