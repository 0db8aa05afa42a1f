import { Command } from "commander";
import { definitionsDirArgument } from "../definitions-dir-argument";
import { formatOption } from "../formats";
import { action } from "../run-command";
import { stackOption } from "../stack-option";
import { VALIDATE_FORMATS, type ValidateFormat } from "./validate-options";

/** `incident-sync validate [dir]`; the work is in `./validate`, loaded when the command runs. */
export function validateCommand(): Command {
  return new Command("validate")
    .description(
      "Check the incident definitions: YAML syntax, fields and values, unique ids and resource names. Reports every problem with file, line and column.",
    )
    .addArgument(definitionsDirArgument())
    .addOption(
      formatOption(
        VALIDATE_FORMATS,
        "text",
        "text for people, json for tools, github for workflow annotations",
      ),
    )
    .addOption(
      stackOption(
        "also list the definitions this Pulumi stack declares (every definition is checked all the same)",
      ),
    )
    .addHelpText(
      "after",
      `
Exit codes:
  0  every definition is valid
  1  at least one problem (or the directory is missing or empty)

Limits (each a problem with its own code):
  regular files inside the directory only; at most 512 KiB and 1,000 documents per file,
  32 levels of nesting, 10,000 values added by aliases; 100 problems listed per file

Examples:
  $ incident-sync validate
  $ incident-sync validate path/to/incidents --format json
  $ incident-sync validate --format github    # in a GitHub Actions step
  $ incident-sync validate --stack staging     # and which incidents staging declares`,
    )
    .action(
      action<{ format: ValidateFormat; stack?: string }, [string]>(async (io, flags, [dir]) => {
        const { runValidate } = await import("./validate.js");
        return runValidate({ dir, format: flags.format, stack: flags.stack }, io);
      }),
    );
}
