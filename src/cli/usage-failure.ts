import type { Command, CommanderError } from "commander";
import type { Format } from "./formats";

/** What a usage error says, for which command, and the format stdout was asked to carry. */
export interface UsageFailure {
  /** The command as typed: `report errors`; empty for the program itself. */
  readonly path: string;
  /** Commander's sentence without its `error: ` prefix, and where to read more. */
  readonly message: string;
  /** The `--format` of the command line, when it is one; undefined with `--out` or none. */
  readonly format: Format | undefined;
}

const FORMATS: Readonly<Record<string, Format>> = {
  text: "text",
  markdown: "markdown",
  md: "markdown",
  json: "json",
  csv: "csv",
  html: "html",
  github: "github",
};

/**
 * A commander error as the CLI reports it, its format read from the words themselves (options
 * were not parsed); `--out` and a bad `--format` get no document.
 */
export function usageFailure(
  error: CommanderError,
  command: Command,
  words: readonly string[],
): UsageFailure {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) {
    names.unshift(current.name());
  }
  const path = names.join(" ");
  const help = path ? `incident-sync ${path} --help` : "incident-sync --help";
  const said = error.message
    .replace(/^error: /, "")
    .replace(/\s*\n\(Did you mean (.*)\?\)$/, "; did you mean $1?");
  return { path, message: `${said} (see ${help})`, format: requestedFormat(command, words) };
}

/** The command's own `--format` value on the command line, by its one name. */
function requestedFormat(command: Command, words: readonly string[]): Format | undefined {
  const choices = command.options.find((option) => option.long === "--format")?.argChoices;
  let format: string | undefined;
  for (const [index, word] of words.entries()) {
    if (word === "--out" || word.startsWith("--out=")) return undefined;
    if (word === "--format") format = words[index + 1];
    else if (word.startsWith("--format=")) format = word.slice("--format=".length);
  }
  return format !== undefined && choices?.includes(format) ? FORMATS[format] : undefined;
}
