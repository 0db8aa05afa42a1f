import {
  type MonitoringClient,
  NotFoundError,
  RequestValidationError,
  type Service,
  type StatusPage,
} from "../../api";
import type { ListedIncident } from "../../api/schemas";
import type { ImportRead } from "./import-plan";

/** What reading said as it went: each list as it grows, for a progress line. */
export interface ReadProgress {
  /** `what` has `count` items read so far, in `pages` pages. */
  readonly update: (what: string, count: number, pages: number) => void;
  /** `what` is read whole. */
  readonly done: (what: string, count: number, pages: number) => void;
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
    progress.update("services", services.length, ++pages);
  }
  progress.done("services", services.length, pages);
  const statusPages: StatusPage[] = [];
  pages = 0;
  for await (const page of client.statusPages.pages()) {
    statusPages.push(...page.entries);
    for (const skipped of page.skipped) {
      notes.push(
        `A status page the list shows is not one the contract allows (${skipped.id ?? "no id"}): ${skipped.problem}`,
      );
    }
    progress.update("status pages", statusPages.length, ++pages);
  }
  progress.done("status pages", statusPages.length, pages);
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
    progress.update("incidents", listed.length, ++pages);
  }
  progress.done("incidents", listed.length, pages);
  const incidents: ImportRead["incidents"][number][] = [];
  for (const incident of listed) {
    if (incident.incidentUpdates !== undefined) {
      incidents.push({ ...incident, incidentUpdates: incident.incidentUpdates });
      continue;
    }
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
  return { services, statusPages, incidents, unreadable, notes };
}
