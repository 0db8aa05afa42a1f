import { InvalidArgumentError, Option } from "commander";

/**
 * Every output format of the CLI, by one name each. `markdown` is also accepted as `md`,
 * on every command, with the same meaning.
 */
export type Format = "text" | "markdown" | "json" | "csv" | "html" | "github";

/** Other spellings accepted for a format. */
const ALIASES: Readonly<Partial<Record<Format, readonly string[]>>> = { markdown: ["md"] };

/**
 * The `--format` option of a command: its formats, plus their aliases (`md` for
 * `markdown`), each turned into the one name the command sees. Anything else is refused
 * with the allowed values.
 *
 * @example
 * command.addOption(formatOption(["text", "markdown", "json"], "text", "text for people, …"));
 */
export function formatOption<const Formats extends readonly [Format, ...Format[]]>(
  formats: Formats,
  defaultFormat: Formats[number],
  description = "output format",
): Option {
  const names = new Map<string, Formats[number]>();
  for (const format of formats) {
    names.set(format, format);
    for (const alias of ALIASES[format] ?? []) names.set(alias, format);
  }
  const option = new Option("--format <format>", description).choices([...names.keys()]);
  return option.default(defaultFormat).argParser((value: string): Formats[number] => {
    const format = names.get(value);
    if (format === undefined) {
      throw new InvalidArgumentError(`Allowed choices are ${[...names.keys()].join(", ")}.`);
    }
    return format;
  });
}

/** Machine-readable output: indented JSON with a final newline. */
export function jsonOutput(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
