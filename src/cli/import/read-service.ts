import {
  type CursorPage,
  type MonitoringClient,
  NotFoundError,
  RequestValidationError,
  type SkippedEntry,
} from "../../api";
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
  const services = await readList("services", client.services.pages(), progress, (skipped) =>
    notes.push(
      `A service the services list shows is not one the contract allows (${skipped.id ?? "no id"}): ${skipped.problem}`,
    ),
  );
  const statusPages = await readList(
    "status pages",
    client.statusPages.pages(),
    progress,
    (skipped) =>
      notes.push(
        `A status page the list shows is not one the contract allows (${skipped.id ?? "no id"}): ${skipped.problem}`,
      ),
  );
  const unreadable: ServiceRead["unreadable"][number][] = [];
  const listed = await readList("incidents", client.incidents.pages(), progress, (skipped, page) =>
    unreadable.push({
      incidentId: skipped.id ?? `(entry ${skipped.index + 1} of page ${page})`,
      name: skipped.name ?? "",
      reason: `the incident list shows it in a shape the contract does not allow: ${skipped.problem}`,
    }),
  );
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

/**
 * Every entry of a list, page after page, its progress said as it goes; each entry the
 * contract refuses goes to `skip` with its page's number, from 1.
 */
async function readList<T>(
  what: string,
  pages: AsyncIterable<CursorPage<T>>,
  progress: ReadProgress,
  skip: (skipped: SkippedEntry, page: number) => void,
): Promise<T[]> {
  const entries: T[] = [];
  let count = 0;
  for await (const page of pages) {
    entries.push(...page.entries);
    count += 1;
    for (const skipped of page.skipped) skip(skipped, count);
    progress.list(what, entries.length, count, false);
  }
  progress.list(what, entries.length, count, true);
  return entries;
}
