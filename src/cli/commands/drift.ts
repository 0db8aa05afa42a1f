import { appendFile } from "node:fs/promises";
import path from "node:path";
import { createClient, NotFoundError } from "../../api";
import { belongsToStack } from "../../definitions";
import { InvalidDefinitionsError } from "../../definitions/invalid-definitions-error";
import { computeDrift, parseSince, readAppliedFile, renderDrift } from "../../reports";
import type { DriftFormat } from "../../reports/drift/render";
import { SETTINGS } from "../../settings/catalog";
import { resolveApiConnection } from "../api-connection";
import type { ApiFlags } from "../api-options";
import { ExitCode } from "../exit-codes";
import type { CommandIo } from "../io";
import { DefinitionsDir } from "./definitions-dir";

export interface DriftCommandOptions extends ApiFlags {
  /** The definitions directory, relative to the working directory. @default `SETTINGS.definitionsDir.default` */
  dir?: string;
  format: DriftFormat;
  since?: string;
  /** Only the definitions this Pulumi stack declares (their `stacks` list). */
  stack?: string | undefined;
  /**
   * What each last apply set: the stack's state (`pulumi stack export`) or the stack output
   * `incidents` (`pulumi stack output incidents --json`, under `incident-sync:outputs full`).
   */
  applied?: string;
  now?: Date;
}

/**
 * Checks live incidents against their definitions and writes the drift report. Resolves to
 * 0 (no drift) or 2 (drift). Invalid definitions, settings, auth and network failures
 * throw; the runner turns them into exit 1.
 */
export async function runDrift(options: DriftCommandOptions, io: CommandIo): Promise<ExitCode> {
  const dir = new DefinitionsDir(io, options.dir ?? SETTINGS.definitionsDir.default);
  const now = options.now ?? new Date();
  const since = options.since ? parseSince(options.since, now) : undefined;
  const connection = resolveApiConnection(options, io.env, {
    from: path.resolve(io.cwd, options.dir ?? SETTINGS.definitionsDir.default),
    stack: options.stack,
  });
  const applied = options.applied
    ? await readAppliedFile(path.resolve(io.cwd, options.applied))
    : undefined;
  const loaded = await dir.load();
  if (loaded.problems.length > 0) throw new InvalidDefinitionsError(dir.given, loaded.problems);
  const client = createClient(connection);
  const report = await computeDrift(
    client.incidents,
    loaded.definitions
      .filter((d) => options.stack === undefined || belongsToStack(d.definition, options.stack))
      .map((d) => ({ ...d, path: path.resolve(io.cwd, d.file) })),
    {
      ...(since ? { since } : {}),
      ...(applied ? { applied } : {}),
      now,
      concurrency: connection.concurrency,
      isNotFound: (e) => e instanceof NotFoundError,
    },
  );
  io.stdout.write(renderDrift(report, options.format));
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (options.format === "github" && summaryFile) {
    await appendFile(summaryFile, renderDrift(report, "markdown"));
  }
  return report.drift ? ExitCode.Changes : ExitCode.Ok;
}
