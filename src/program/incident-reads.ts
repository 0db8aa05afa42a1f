import {
  ApiError,
  type IncidentResponse,
  type IncidentUpdate,
  type ListedIncident,
  type MonitoringClient,
} from "../api";
import { mayHaveOpened, type Opening } from "../incident";
import { type ReadBack, settle } from "./read-backs";

/** One incident as this run read it: its updates, and its fields when the read gave them. */
export interface ReadIncident {
  id: string;
  updates: IncidentUpdate[];
  /**
   * Name, severity and services, and the service's time of the last change: absent when only
   * the spec's list of updates could be read.
   */
  fields?: Pick<IncidentResponse, "name" | "severity" | "services" | "updated_at">;
  created_at?: string;
  /** The service's time of the incident's last change, when it gave one. */
  updated_at?: string | null | undefined;
}

/** What a run wants to read: the ids of the incidents it declares, and its new incidents. */
export interface WantedIncidents {
  ids: readonly string[];
  /** New incidents (no id), by resource name: the list is searched for those that may be them. */
  fresh: readonly FreshIncident[];
}

/** A declared new incident, as the list is searched for it: its resource, and its opening. */
export interface FreshIncident extends Opening {
  resource: string;
}

/** What a run read of the service's incidents: by id, and the candidates of new ones. */
export interface IncidentReads {
  /** The read of a declared id. */
  byId(id: string): ReadBack<ReadIncident>;
  /**
   * The listed incidents the new one of `resource` may have opened (`mayHaveOpened`): of its
   * first message, under any name, as the status page may have renamed the one it opened.
   */
  candidatesOf(resource: string): ReadIncident[];
  /** Requests the reads took, for the run's figures. */
  readonly requests: number;
  /** Why the list could not be used, when it could not: every id was then read alone. */
  readonly listProblem: string | undefined;
}

/**
 * Reads the incidents a run declares with as few requests as the service allows: the list
 * (`GET /v1/status-pages/incidents`, 100 incidents with their updates a request) page after
 * page while it can still pay (while more incidents are wanted than pages were read), then one
 * read per incident the list did not give (`GET …/incidents/{id}`), or the spec's list of
 * updates when the service has no list of incidents. Assumes no order. A failure of one read
 * is that incident's alone; nothing rejects.
 */
export async function readIncidents(
  client: MonitoringClient,
  wanted: WantedIncidents,
): Promise<IncidentReads> {
  const ids = new Set(wanted.ids);
  const found = new Map<string, ReadIncident>();
  const candidates = new Map<string, ReadIncident[]>();
  let requests = 0;
  let listProblem: string | undefined;
  let canGet = true;
  if (ids.size + wanted.fresh.length > 0) {
    try {
      for await (const page of client.incidents.pages()) {
        requests += 1;
        for (const entry of page.entries) {
          const read = readOf(entry);
          if (read === undefined) continue;
          if (ids.has(entry.id)) found.set(entry.id, read);
          for (const fresh of wanted.fresh) {
            if (mayHaveOpened({ incidentUpdates: read.updates }, fresh)) {
              candidates.set(fresh.resource, [...(candidates.get(fresh.resource) ?? []), read]);
            }
          }
        }
        const missing =
          [...ids].filter((id) => !found.has(id)).length +
          wanted.fresh.filter((fresh) => !candidates.has(fresh.resource)).length;
        if (missing <= requests) break;
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      listProblem = error.message;
      // No list at all (404, 405): a service with the spec's operations only.
      canGet = !(error.status === 404 || error.status === 405) || error.attempts === 0;
    }
  }
  const rest = [...ids].filter((id) => !found.has(id));
  const singles = await Promise.all(
    rest.map((id) =>
      settle(async () => {
        requests += 1;
        if (canGet) return readOfResponse(await client.incidents.get(id));
        return { id, updates: await client.incidents.listUpdates(id) };
      }),
    ),
  );
  const byId = new Map<string, ReadBack<ReadIncident>>();
  for (const [id, read] of found) byId.set(id, { ok: true, value: read });
  rest.forEach((id, index) => {
    byId.set(id, singles[index] as ReadBack<ReadIncident>);
  });
  return {
    byId: (id) =>
      byId.get(id) ?? { ok: false, missing: false, reason: `incident ${id} was not read` },
    candidatesOf: (resource) => candidates.get(resource) ?? [],
    requests,
    listProblem,
  };
}

/** A listed incident as a read, when the list gave its updates (a lean entry is read alone). */
function readOf(entry: ListedIncident): ReadIncident | undefined {
  if (entry.incidentUpdates === undefined) return undefined;
  return readOfResponse({ ...entry, incidentUpdates: entry.incidentUpdates });
}

function readOfResponse(incident: IncidentResponse): ReadIncident {
  return {
    id: incident.id,
    updates: incident.incidentUpdates,
    fields: {
      name: incident.name,
      severity: incident.severity,
      services: incident.services,
      updated_at: incident.updated_at,
    },
    created_at: incident.created_at,
    updated_at: incident.updated_at,
  };
}
