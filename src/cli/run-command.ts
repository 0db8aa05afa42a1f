import type { Command } from "commander";
import { formatLocation } from "../definitions/problem";
import { safeLine, safeText } from "../safe-text";
import { settingEnv, settingFlag } from "../settings/names";
import type { ExitCode } from "./exit-codes";
import type { Failure } from "./failure";
import type { Format } from "./formats";
import { HeldOutput } from "./held-output";
import { type CommandIo, processIo } from "./io";

export interface RunCommandOptions {
  /** The command as typed: `plan`, `report errors`. */
  readonly command: string;
  /**
   * The format stdout carries, so a failure can be written there in the same format;
   * undefined when the output goes to a file (`--out`): a failure then shows on stderr only.
   */
  readonly format: Format | undefined;
  /** Texts never to show (the API key), whatever an error message quotes. */
  readonly secrets: readonly string[];
  /** A first line for a Markdown error, such as plan's sticky-comment marker; read only on failure. */
  readonly markdownMarker?: (() => Promise<string>) | undefined;
}

/**
 * Runs a command: stdout held until it succeeds, whatever it throws through `describeFailure`,
 * and on failure an error document in place of a truncated one. Resolves to the exit code.
 */
export async function runCommand(
  io: CommandIo,
  options: RunCommandOptions,
  body: (io: CommandIo) => Promise<ExitCode>,
): Promise<ExitCode> {
  const stdout = new HeldOutput(io.stdout);
  try {
    const exitCode = await body({ ...io, stdout, releaseStdout: () => stdout.release() });
    await stdout.finish();
    return exitCode;
  } catch (error) {
    stdout.discard();
    // Loaded only on failure: the mapping knows the API client's errors.
    const { describeFailure } = await import("./failure.js");
    const failure = describeFailure(error, options.secrets);
    io.stderr.write(failureText(failure, options.command, stdout.released));
    if (!stdout.released && options.format !== undefined) {
      const { errorDocument } = await import("./error-document.js");
      const document = errorDocument(options.format, failure, {
        command: options.command,
        markdownMarker: await options.markdownMarker?.(),
      });
      if (document !== undefined) io.stdout.write(document);
    }
    return failure.exitCode;
  }
}

/** The failure as a person reads it on stderr, made safe for a terminal or a CI log. */
export function failureText(failure: Failure, command: string, streamed: boolean): string {
  const lines = [`incident-sync${command ? ` ${command}` : ""}: ${safeText(failure.message)}`];
  for (const problem of failure.problems ?? []) {
    lines.push(`  ${safeLine(`${formatLocation(problem)}: ${problem.message} [${problem.code}]`)}`);
  }
  if (failure.stack !== undefined) lines.push(safeText(failure.stack));
  if (streamed) {
    lines.push("The output already written to stdout is incomplete (see --help on failures).");
  }
  return `${lines.join("\n")}\n`;
}

/** The flags `action` reads from every command; each is optional. */
interface CommonFlags {
  format?: Format;
  out?: string;
  apiKey?: string;
}

export interface ActionOptions {
  /** See `RunCommandOptions.markdownMarker`. */
  readonly markdownMarker?: () => Promise<string>;
}

/**
 * The commander action of a command: runs `run` through `runCommand` on the real process
 * and sets the exit code. `run` is where the command loads its implementation (with
 * `import()`), so a command loads only what it needs and `--help` loads none of them.
 *
 * @example
 * .action(action<PlanFlags, [string]>(async (io, flags, [dir]) => {
 *   const { runPlan } = await import("./plan.js");
 *   return runPlan({ dir, base: flags.base, format: flags.format }, io);
 * }))
 */
export function action<Flags extends CommonFlags, Args extends unknown[] = []>(
  run: (io: CommandIo, flags: Flags, args: Args) => Promise<ExitCode>,
  options: ActionOptions = {},
): (...received: unknown[]) => Promise<void> {
  return async (...received) => {
    const command = received.at(-1) as Command;
    const flags = command.opts<Flags>();
    const args = command.processedArgs as Args;
    const io = processIo();
    if (flags.apiKey !== undefined) io.stderr.write(apiKeyFlagWarning(commandPath(command)));
    process.exitCode = await runCommand(
      io,
      {
        command: commandPath(command),
        format: flags.out === undefined ? flags.format : undefined,
        secrets: [flags.apiKey, io.env[settingEnv("apiKey")]].filter(
          (secret): secret is string => typeof secret === "string",
        ),
        markdownMarker: options.markdownMarker,
      },
      (held) => run(held, flags, args),
    );
  };
}

/**
 * A key given with `--api-key` is in the process list (`ps`) for the whole run, where other
 * users of the machine and process monitors see it: said first, once, without the key.
 */
export function apiKeyFlagWarning(command: string): string {
  return `incident-sync ${command}: warning: ${settingFlag("apiKey")} shows the API key in the process list (ps) for as long as the command runs; set ${settingEnv("apiKey")} instead, which is safer.\n`;
}

/** `report errors` for the `errors` subcommand of `report`; the program's own name is left out. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(" ");
}
