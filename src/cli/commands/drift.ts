import { appendFile } from "node:fs/promises";
import path from "node:path";
import { Command, Option } from "commander";
import { createClient, NotFoundError } from "../../api";
import { formatLocation, loadDefinitions } from "../../definitions";
import {
  computeDrift,
  DRIFT_FORMATS,
  type DriftFormat,
  parseSince,
  renderDrift,
} from "../../reports";
import { type ApiFlags, addApiOptions, redactKey, resolveApiConnection } from "../api-options";
import { type CommandIo, processIo } from "./report-io";

/** Exit codes of `drift`, stable for scripts and pipelines. */
export const DRIFT_EXIT = { none: 0, error: 1, drift: 2 } as const;

export interface DriftCommandOptions extends ApiFlags {
  dir?: string;
  format: DriftFormat;
  since?: string;
  now?: Date;
}

/**
 * Checks live incidents against their definitions. Resolves to 0 (no drift), 2 (drift)
 * or 1 (definitions invalid). Auth, network and option errors throw; the CLI maps them
 * to 1 as well.
 */
export async function runDrift(
  options: DriftCommandOptions,
  io: CommandIo = processIo(),
): Promise<number> {
  const dir = path.resolve(io.cwd, options.dir ?? "incidents");
  const now = options.now ?? new Date();
  const since = options.since ? parseSince(options.since, now) : undefined;
  const connection = resolveApiConnection(options, io.env);
  const loaded = await loadDefinitions(dir);
  if (loaded.problems.length > 0) {
    const list = loaded.problems
      .map(
        (p) =>
          `  ${formatLocation({ ...p, file: path.relative(io.cwd, p.file) || p.file })}: ${p.message}`,
      )
      .join("\n");
    io.stderr.write(
      `incident-sync drift: the definitions are not valid; fix them first (incident-sync validate):\n${list}\n`,
    );
    return DRIFT_EXIT.error;
  }
  const client = createClient(connection);
  try {
    const report = await computeDrift(
      client.incidents,
      loaded.definitions.map((d) => ({
        ...d,
        file: path.relative(io.cwd, d.file) || d.file,
        path: d.file,
      })),
      { ...(since ? { since } : {}), now, isNotFound: (e) => e instanceof NotFoundError },
    );
    io.stdout.write(renderDrift(report, options.format));
    const summaryFile = io.env.GITHUB_STEP_SUMMARY;
    if (options.format === "github" && summaryFile) {
      await appendFile(summaryFile, renderDrift(report, "markdown"));
    }
    return report.drift ? DRIFT_EXIT.drift : DRIFT_EXIT.none;
  } catch (error) {
    if (error instanceof Error) error.message = redactKey(error.message, connection.apiKey);
    throw error;
  }
}

export function driftCommand(): Command {
  const command = new Command("drift")
    .description(
      "Compare each definition's declared status with the live one and list updates posted outside git.",
    )
    .argument("[dir]", "directory of incident definitions", "incidents")
    .addOption(
      new Option("--format <format>", "output format").choices([...DRIFT_FORMATS]).default("text"),
    )
    .option(
      "--since <when>",
      "count updates after this time as outside git (30m, 24h, 7d or an ISO date); default: the last commit of each definition file",
    );
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
The live status of an incident is the status of its newest update that has one (the API
has no read of the incident itself). Updates "outside git" are those posted after the
last commit that touched the definition file (or after --since); each is "expected" when
its status matches the declaration (or it is a comment without a status), "drift" when
it differs. Only the live status decides the exit code: an out-of-band update that was
later put back to the declared status is listed, but is not drift.

Formats: text (people), json (bots; the drift report schema), markdown (an issue or PR
comment), github (workflow-command annotations on the definition files, plus a Markdown
summary to $GITHUB_STEP_SUMMARY when it is set).

Exit codes:
  0  no drift (every incident in sync, or its live status unknown)
  2  drift: an incident's live status differs from its definition, or it does not exist
  1  error: invalid definitions, missing settings, auth or network failure

Examples:
  $ MONITORING_API_KEY=… incident-sync drift
  $ incident-sync drift incidents --format json --since 24h
  $ incident-sync drift --format github   # in GitHub Actions
`,
    )
    .action(async (dir: string, opts: Omit<DriftCommandOptions, "dir">) => {
      process.exitCode = await runDrift({ ...opts, dir }, processIo());
    });
}
