import { appendFile } from "node:fs/promises";
import path from "node:path";
import {
  ApiError,
  createClient,
  NotFoundError,
  PagingError,
  ResponseValidationError,
} from "../../api";
import { belongsToStack } from "../../definitions";
import { InvalidDefinitionsError } from "../../definitions/invalid-definitions-error";
import { computeDrift, parseSince, readAppliedInput, renderDrift } from "../../reports";
import type { DriftFormat } from "../../reports/drift/render";
import { safeLine } from "../../safe-text";
import { SETTINGS } from "../../settings/catalog";
import { resolveApiConnection } from "../api-connection";
import type { ApiFlags } from "../api-options";
import { ExitCode } from "../exit-codes";
import type { CommandIo } from "../io";
import { readStackRecords, stackStateSource } from "../stack-records";
import { UsageError } from "../usage-error";
import { DefinitionsDir } from "./definitions-dir";

export interface DriftCommandOptions extends ApiFlags {
  /** The definitions directory, relative to the working directory. @default `SETTINGS.definitionsDir.default` */
  dir?: string;
  format: DriftFormat;
  since?: string;
  /**
   * Only the definitions this Pulumi stack declares (their `stacks` list), checked with what
   * its state holds: the ids of the incidents its `up` opened, each last apply, its updates.
   */
  stack?: string | undefined;
  /** The stack's state directory (a `file://` backend). @default PULUMI_BACKEND_URL, else `backend.url` of Pulumi.yaml */
  state?: string | undefined;
  /**
   * What each last apply set: the stack's state (`pulumi stack export`) or the stack output
   * `incidents` (`pulumi stack output incidents --json`, under `incident-sync:outputs full`).
   */
  applied?: string;
  now?: Date;
}

/**
 * Checks live incidents against their definitions and writes the drift report. Resolves to
 * 0 (no drift), 2 (drift) or 4 (no drift found, but not every incident could be checked).
 * Invalid definitions, settings, auth and network failures throw; the runner makes them exit 1.
 */
export async function runDrift(options: DriftCommandOptions, io: CommandIo): Promise<ExitCode> {
  const dir = new DefinitionsDir(io, options.dir ?? SETTINGS.definitionsDir.default);
  const now = options.now ?? new Date();
  const since = options.since ? parseSince(options.since, now) : undefined;
  const connection = resolveApiConnection(options, io.env, {
    from: path.resolve(io.cwd, options.dir ?? SETTINGS.definitionsDir.default),
    stack: options.stack,
  });
  if (options.state !== undefined && options.stack === undefined) {
    throw new UsageError("--state names where a stack's state is: give the stack with --stack.");
  }
  const fromFile = options.applied
    ? await readAppliedInput(path.resolve(io.cwd, options.applied))
    : undefined;
  const loaded = await dir.load();
  if (loaded.problems.length > 0) throw new InvalidDefinitionsError(dir.given, loaded.problems);
  // --applied is the stack's state already; else --stack reads it.
  const stack = fromFile === undefined ? options.stack : undefined;
  const stackRead =
    stack === undefined
      ? undefined
      : await readStackRecords(
          stackStateSource(stack, options.state, dir.absolute, io, connection.deadline),
        );
  const records = fromFile ?? (stackRead?.read ? stackRead : undefined);
  const client = createClient(connection);
  const report = await computeDrift(
    {
      listUpdates: (id) => client.incidents.listUpdates(id),
      pages: () => client.incidents.pages(),
    },
    loaded.definitions
      .filter((d) => options.stack === undefined || belongsToStack(d.definition, options.stack))
      .map((d) => ({ ...d, path: path.resolve(io.cwd, d.file) })),
    {
      ...(since ? { since } : {}),
      ...(records ? { applied: records.applied, posted: records.posted } : {}),
      ...(stack === undefined || stackRead === undefined
        ? {}
        : {
            stack: stackRead.read
              ? { name: stack, read: true, unopened: stackRead.unopened }
              : { name: stack, read: false, why: stackRead.why },
          }),
      ...(fromFile === undefined ? {} : { appliedFile: options.applied }),
      now,
      concurrency: connection.concurrency,
      warn: (line) => io.stderr.write(`incident-sync drift: warning: ${safeLine(line)}\n`),
      isNotFound: (e) => e instanceof NotFoundError,
      listDegrades: (e) =>
        e instanceof ResponseValidationError ||
        e instanceof PagingError ||
        e instanceof NotFoundError ||
        (e instanceof ApiError && (e.status === 405 || e.status === 501)),
    },
  );
  io.stdout.write(renderDrift(report, options.format));
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (options.format === "github" && summaryFile) {
    await appendFile(summaryFile, renderDrift(report, "markdown"));
  }
  if (stackRead?.read === false) {
    io.stderr.write(
      `incident-sync drift: the state of stack ${options.stack} could not be read (${safeLine(stackRead.why)}); ${report.summary.unchecked} incident(s) could not be checked, and those with an id were checked by their updates alone.\n`,
    );
  } else if (report.summary.unchecked > 0) {
    io.stderr.write(
      `incident-sync drift: ${report.summary.unchecked} incident(s) could not be checked (the report says why of each)${options.stack === undefined && fromFile === undefined ? "; --stack <name> reads the ids of the incidents a stack opened from its state" : ""}.\n`,
    );
  }
  if (report.drift) return ExitCode.Changes;
  return report.summary.unchecked > 0 || stackRead?.read === false
    ? ExitCode.NotChecked
    : ExitCode.Ok;
}
