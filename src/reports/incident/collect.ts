import { NotFoundError } from "../../api/errors";
import type {
  ErrorGroup,
  IncidentResponse,
  IncidentStatus,
  IncidentUpdate,
  Severity,
} from "../../api/schemas";
import { incidentSpan, publishedAt } from "../../incident";
import { collectHeartbeat, type HeartbeatReader } from "../heartbeats/collect";
import { heartbeatLane, timeInState } from "../heartbeats/lane";
import type { CheckNames } from "../shared/check-names";
import { IncidentNotFoundError } from "./errors";
import type {
  IncidentErrorGroup,
  IncidentReport,
  IncidentReportCheck,
  IncidentReportIncident,
} from "./report-schema";
import { INCIDENT_REPORT_KIND } from "./report-schema";
import { buildTimeline } from "./timeline";
import { reportWindow } from "./window";

/** The parts of the API client an incident report reads through. */
export interface IncidentReader {
  incidents: {
    listUpdates(incidentId: string): Promise<IncidentUpdate[]>;
    /** The incident's name and services, as the page shows them; a reader without it names them from git. */
    get?(incidentId: string): Promise<IncidentResponse>;
  };
  heartbeats: HeartbeatReader;
  errorGroups: { allForCheck(checkId: string): AsyncIterable<ErrorGroup> };
}

/** What git says about an incident, when it has a definition. */
export interface DefinedIncident {
  file: string;
  line: number;
  name: string;
  severity: Severity;
  status: IncidentStatus;
  /** Each service the definition lists, with the name the definitions give it. */
  services: { id: string; name?: string | undefined }[];
  evidence: { heartbeats: string[]; checks: string[] };
}

export interface IncidentReportRequest {
  id: string;
  definition?: DefinedIncident;
  /** Evidence given on the command line, added to the definition's. */
  extra: { heartbeats: string[]; checks: string[] };
}

export interface IncidentCollectOptions {
  from?: Date;
  to?: Date;
  /** @default one hour */
  marginMs: number;
  now: Date;
  /** The evidence checks' and heartbeats' names, read once through the checks list. */
  checkNames?: CheckNames;
}

const unique = (...lists: string[][]) => [...new Set(lists.flat())];

/**
 * Reads one incident's story: its updates, then (with the window they give) the events of
 * its evidence heartbeats and the error groups of its evidence checks, all at once.
 */
export async function collectIncident(
  reader: IncidentReader,
  request: IncidentReportRequest,
  options: IncidentCollectOptions,
): Promise<IncidentReportIncident> {
  const [updates, live] = await Promise.all([
    reader.incidents.listUpdates(request.id).catch((error: unknown) => {
      throw error instanceof NotFoundError
        ? new IncidentNotFoundError(request.id, { cause: error })
        : error;
    }),
    // Only for names: a service without the read (it is the reference's) names them from git.
    reader.incidents.get?.(request.id).catch(() => undefined),
  ]);
  const span = incidentSpan(updates);
  const window = reportWindow(span, options);
  const evidence = {
    heartbeats: unique(request.definition?.evidence.heartbeats ?? [], request.extra.heartbeats),
    checks: unique(request.definition?.evidence.checks ?? [], request.extra.checks),
  };
  const from = window.from.getTime();
  const to = window.to.getTime();
  const during = { from: span.started ?? from, to: span.resolved ?? options.now.getTime() };
  const [heartbeats, checks] = await Promise.all([
    Promise.all(
      evidence.heartbeats.map(async (checkId) => {
        const check = await collectHeartbeat(reader.heartbeats, checkId, window.from, window.to);
        return { ...check, timeInState: timeInState(heartbeatLane(check, from, to)) };
      }),
    ),
    Promise.all(
      evidence.checks.map((checkId) => collectCheck(reader, checkId, { from, to }, during)),
    ),
  ]);
  const declared = request.definition;
  const incident: IncidentReportIncident = {
    id: request.id,
    definition: declared
      ? {
          file: declared.file,
          line: declared.line,
          name: declared.name,
          severity: declared.severity,
          status: declared.status,
          services: declared.services.map((service) => service.id),
          serviceNames: Object.fromEntries(
            declared.services.flatMap((service) =>
              service.name ? [[service.id, service.name] as const] : [],
            ),
          ),
        }
      : null,
    live: live
      ? {
          name: live.name,
          services: live.services.map((service) => ({
            id: service.id,
            name: service.name ?? null,
          })),
        }
      : null,
    liveStatus: span.liveStatus,
    startedAt: span.started === undefined ? null : new Date(span.started).toISOString(),
    resolvedAt: span.resolved === undefined ? null : new Date(span.resolved).toISOString(),
    window: {
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      marginMs: window.marginMs,
    },
    evidence,
    updates: [...updates].sort((a, b) => publishedAt(a) - publishedAt(b)),
    heartbeats,
    checks,
    timeline: [],
  };
  incident.timeline = buildTimeline(incident);
  return incident;
}

/** Every group of a check, keeping those seen in the window; the rest are only counted. */
async function collectCheck(
  reader: IncidentReader,
  checkId: string,
  window: { from: number; to: number },
  during: { from: number; to: number },
): Promise<IncidentReportCheck> {
  const groups: IncidentErrorGroup[] = [];
  let outside = 0;
  for await (const group of reader.errorGroups.allForCheck(checkId)) {
    const first = Date.parse(group.firstSeen);
    const last = Date.parse(group.lastSeen);
    if (first > window.to || last < window.from) {
      outside += 1;
      continue;
    }
    groups.push({ ...group, newDuringIncident: first >= during.from && first <= during.to });
  }
  groups.sort((a, b) => Date.parse(a.firstSeen) - Date.parse(b.firstSeen));
  return { checkId, groups, groupsOutsideWindow: outside };
}

/** Reads every incident of a report, one after another (each reads its evidence at once). */
export async function collectIncidents(
  reader: IncidentReader,
  requests: readonly IncidentReportRequest[],
  options: IncidentCollectOptions,
): Promise<IncidentReport> {
  const incidents: IncidentReportIncident[] = [];
  for (const request of requests) incidents.push(await collectIncident(reader, request, options));
  return {
    kind: INCIDENT_REPORT_KIND,
    version: 1,
    generatedAt: options.now.toISOString(),
    checkNames: { ...options.checkNames },
    incidents,
  };
}
