import { Option } from "commander";
import type { ExitCode } from "./exit-codes";

/**
 * The `--format` option with its allowed values; commander rejects anything else with
 * a message that lists them.
 *
 * @example
 * command.addOption(formatOption(["text", "json"], "text"));
 */
export function formatOption<const Formats extends readonly [string, ...string[]]>(
  formats: Formats,
  defaultFormat: Formats[number],
  description = "output format",
): Option {
  return new Option("--format <format>", description).choices(formats).default(defaultFormat);
}

/** What a command produced: the text for stdout and the exit code. */
export interface CommandResult {
  readonly output: string;
  readonly exitCode: ExitCode;
}

/** Writes a command's output and sets the exit code without cutting stdout short. */
export function emit(result: CommandResult): void {
  if (result.output !== "") process.stdout.write(result.output);
  process.exitCode = result.exitCode;
}

/** Machine-readable output: indented JSON with a final newline. */
export function jsonOutput(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `1 file`, `2 files`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
