import { Command, type CommanderError } from "commander";
import { PACKAGE_VERSION } from "../package-version";
import { driftCommand } from "./commands/drift-command";
import { emulatorCommand } from "./commands/emulator-command";
import { fitCommentCommand } from "./commands/fit-comment-command";
import { importCommand } from "./commands/import-command";
import { initCommand } from "./commands/init-command";
import { planCommand } from "./commands/plan-command";
import { reportCommand } from "./commands/report-command";
import { cancelCommand, stackCommand } from "./commands/stack-command";
import { validateCommand } from "./commands/validate-command";
import { failureText } from "./run-command";

/**
 * The `incident-sync` command line: each command's options in `commands/<name>-command.ts`,
 * its work in `commands/<name>.ts`, loaded only when it runs.
 */
export function createProgram(): Command {
  const program = new Command("incident-sync")
    .description("Keep status-page incidents in git and check them against the monitoring API.")
    .version(PACKAGE_VERSION)
    .configureHelp({ sortSubcommands: true })
    .addHelpText("after", OVERVIEW);
  program.addCommand(initCommand());
  program.addCommand(importCommand());
  program.addCommand(validateCommand());
  program.addCommand(planCommand());
  program.addCommand(driftCommand());
  program.addCommand(reportCommand());
  program.addCommand(emulatorCommand());
  program.addCommand(stackCommand("up"));
  program.addCommand(stackCommand("preview"));
  program.addCommand(stackCommand("refresh"));
  program.addCommand(cancelCommand());
  program.addCommand(fitCommentCommand());
  reportUsageErrors(program);
  return program;
}

/** A mistake on the command line (an unknown option, a missing one, a bad value). */
class CommandLineError extends Error {
  constructor(
    readonly commanderError: CommanderError,
    readonly command: Command,
  ) {
    super(commanderError.message);
  }
}

/**
 * Every command, subcommands included, hands its usage errors to `runProgram` instead of
 * printing them and exiting, so they go out as every other error does: on stderr, and as an
 * error document in the requested format.
 */
function reportUsageErrors(command: Command): void {
  command.configureOutput({ outputError: () => {} });
  command.exitOverride((error) => {
    throw new CommandLineError(error, command);
  });
  for (const sub of command.commands) reportUsageErrors(sub);
}

/**
 * Output piped into a reader that stops early (`| head`) ends the command quietly, as a pipe's
 * writer ends in a shell, instead of with a stack trace: nothing more can be written anyway.
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream, exit = process.exit): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    exit(process.exitCode ?? 0);
  });
}

/** Runs the command line; every command reports its own failures, this catches the rest. */
export async function runProgram(argv: readonly string[]): Promise<void> {
  endQuietlyOnClosedPipe(process.stdout);
  endQuietlyOnClosedPipe(process.stderr);
  try {
    await createProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommandLineError) {
      process.exitCode = await reportCommandLineError(error, argv);
      return;
    }
    const { describeFailure } = await import("./failure.js");
    const failure = describeFailure(error);
    process.stderr.write(failureText(failure, "", false));
    process.exitCode = failure.exitCode;
  }
}

/**
 * `--help` and `--version` end the same way (exit 0). A usage error is a `UsageError` like
 * any other: a line on stderr naming the command, and the error document in the format the
 * command line asked for, when it names one stdout can carry.
 */
async function reportCommandLineError(error: CommandLineError, argv: readonly string[]) {
  const { commanderError, command } = error;
  if (commanderError.exitCode === 0 || commanderError.code === "commander.help") {
    return commanderError.exitCode;
  }
  const { usageFailure } = await import("./usage-failure.js");
  const { path, message, format } = usageFailure(commanderError, command, argv.slice(2));
  const { errorDocument } = await import("./error-document.js");
  const failure = { type: "UsageError", message, exitCode: 1 } as const;
  process.stderr.write(failureText(failure, path, false));
  const document = format && errorDocument(format, failure, { command: path });
  if (document) process.stdout.write(document);
  return failure.exitCode;
}

const OVERVIEW = `
Commands that talk to the API (import, drift, report, plan --evidence, validate --live,
up/preview/refresh) read
MONITORING_API_URL, MONITORING_API_KEY, MONITORING_ACCOUNT_ID, MONITORING_RATE_LIMIT and
MONITORING_CONCURRENCY, or --api-url, --api-key, --account-id, --rate-limit and
--concurrency. The key is never printed.

Formats: every command takes --format; markdown may be written md. With a format other
than text (and no --out file), an error is also written to stdout in that format (JSON:
{"error": {…}}), so whatever reads stdout gets a whole document, never half of one.

Exit codes: 0 ok, 1 error (bad input, auth, network, git), 2 changes or drift found
(plan, drift), 3 lifecycle policy violated (plan).

Examples:
  $ incident-sync init --ci github
  $ incident-sync import
  $ incident-sync validate incidents --format github
  $ incident-sync plan --base origin/main --format markdown
  $ incident-sync drift incidents
  $ incident-sync report errors --check chk-api --format html --out errors.html
  $ incident-sync emulator --port 0 --format json

Run "incident-sync <command> --help" for each command's options and examples.`;
