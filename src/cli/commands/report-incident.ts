import path from "node:path";
import { createClient } from "../../api";
import { type LoadedDefinition, loadDefinitions } from "../../definitions";
import {
  collectIncidents,
  type DefinedIncident,
  type IncidentReportFormat,
  parseFlagDuration,
  parseSince,
  parseUntil,
  writeIncidentReport,
} from "../../reports";
import { safeLine } from "../../safe-text";
import { resolveApiConnection } from "../api-connection";
import type { ApiFlags } from "../api-options";
import { ExitCode } from "../exit-codes";
import type { CommandIo } from "../io";
import { readStackRecords, stackStateSource } from "../stack-records";
import { readNamesFor, warnAboutHeartbeats, writeReport } from "./report-output";

export interface ReportIncidentOptions extends ApiFlags {
  ids: string[];
  /** Where the definitions are; their `evidence` says which checks belong to which incident. */
  dir: string;
  heartbeat?: string[];
  check?: string[];
  from?: string;
  to?: string;
  margin: string;
  format: IncidentReportFormat;
  out?: string;
  /**
   * The stack whose state gives the ids of the incidents its `up` opened (definitions without
   * `id`), so their reports link to their definitions.
   */
  stack?: string;
  /** The stack's state directory (a `file://` backend). @default PULUMI_BACKEND_URL, else backend.url of Pulumi.yaml */
  state?: string;
  /** The current time; a test may pin it. */
  now?: Date;
}

function defined(loaded: LoadedDefinition, cwd: string): DefinedIncident {
  const d = loaded.definition;
  return {
    file: path.relative(cwd, path.resolve(cwd, loaded.file)),
    line: loaded.at.line,
    name: d.name,
    severity: d.severity,
    status: d.status,
    services: d.services.map((s) => (typeof s === "string" ? { id: s } : s)),
    evidence: { heartbeats: d.evidence?.heartbeats ?? [], checks: d.evidence?.checks ?? [] },
  };
}

/**
 * The incident ids a stack's state holds, by resource name; a note when it cannot be read,
 * and `another` when it is another project's or stack's, refused.
 */
async function openedIds(
  options: ReportIncidentOptions,
  dir: string,
  io: CommandIo,
  deadline: Date | number | undefined,
): Promise<{ ids: ReadonlyMap<string, string> | undefined; another: boolean }> {
  const stack = options.stack ?? "";
  const read = await readStackRecords(stackStateSource(stack, options.state, dir, io, deadline));
  if (read.read) return { ids: read.ids, another: false };
  io.stderr.write(
    `Note: the state of stack ${stack} could not be read (${safeLine(read.why)}); an incident its up opened is reported without its definition.\n`,
  );
  return { ids: undefined, another: read.another === true };
}

/**
 * Reports one or more incidents: updates, heartbeat states and error groups on one time
 * axis. Resolves to 0 once written (4 when --stack's state was another's, refused); failures
 * throw, and the runner turns them into exit 1.
 * The report is read whole before anything is written.
 */
export async function runReportIncident(
  options: ReportIncidentOptions,
  io: CommandIo,
): Promise<ExitCode> {
  const connection = resolveApiConnection(options, io.env, {
    from: path.resolve(io.cwd, options.dir),
  });
  const now = options.now ?? new Date();
  const from = options.from ? parseSince(options.from, now, "--from") : undefined;
  const to = options.to ? parseUntil(options.to, now) : undefined;
  const marginMs = parseFlagDuration(options.margin, "--margin");
  const dir = path.resolve(io.cwd, options.dir);
  const loaded = await loadDefinitions(dir);
  const state =
    options.stack === undefined
      ? undefined
      : await openedIds(options, dir, io, connection.deadline);
  const opened = state?.ids;
  const byId = new Map(
    loaded.definitions.map((d) => [d.definition.id ?? opened?.get(d.definition.resource), d]),
  );
  if (loaded.problems.some((p) => p.code === "missing-directory")) {
    io.stderr.write(
      `Note: there is no ${options.dir} directory; evidence comes only from --heartbeat and --check.\n`,
    );
  } else if (loaded.problems.length > 0) {
    io.stderr.write(
      `Note: ${loaded.problems.length} problem(s) in ${options.dir}; their incidents' evidence is left out (run \`incident-sync validate ${options.dir}\`).\n`,
    );
  }
  const requests = [...new Set(options.ids)].map((id) => {
    const found = byId.get(id);
    return {
      id,
      extra: { heartbeats: options.heartbeat ?? [], checks: options.check ?? [] },
      ...(found ? { definition: defined(found, io.cwd) } : {}),
    };
  });
  const client = createClient(connection);
  const evidence = requests.flatMap((request) => [
    ...(request.definition?.evidence.heartbeats ?? []),
    ...(request.definition?.evidence.checks ?? []),
    ...request.extra.heartbeats,
    ...request.extra.checks,
  ]);
  const checkNames = await readNamesFor(client, evidence, io.stderr);
  const report = await writeReport(options.out, io, async (sink) => {
    const collected = await collectIncidents(client, requests, {
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      marginMs,
      now,
      checkNames,
    });
    await writeIncidentReport(collected, options.format, sink);
    return collected;
  });
  warnAboutHeartbeats(
    io.stderr,
    report.incidents.flatMap((i) => i.heartbeats),
    checkNames,
  );
  const entries = report.incidents.reduce((n, i) => n + i.timeline.length, 0);
  const where = options.out ? ` to ${options.out}` : "";
  io.stderr.write(
    `Wrote ${report.incidents.length} incident(s) with ${entries} timeline entries${where}.\n`,
  );
  // Another project's or stack's state: the report stands, but not as the stack asked for.
  return state?.another ? ExitCode.NotChecked : ExitCode.Ok;
}
