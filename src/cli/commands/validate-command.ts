import { Command } from "commander";
import { type ApiFlags, addApiOptions } from "../api-options";
import { definitionsDirArgument } from "../definitions-dir-argument";
import { formatOption } from "../formats";
import { action } from "../run-command";
import { stackOption } from "../stack-option";
import { VALIDATE_FORMATS, type ValidateFormat } from "./validate-options";

interface ValidateFlags extends ApiFlags {
  format: ValidateFormat;
  stack?: string;
  live?: boolean;
}

/** `incident-sync validate [dir]`; the work is in `./validate`, loaded when the command runs. */
export function validateCommand(): Command {
  const command = new Command("validate")
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
    .option(
      "--live",
      "also check every service id the definitions list against the service's services list (needs the API settings)",
    );
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
Exit codes:
  0  every definition is valid (and, with --live, every service it lists is the account's)
  1  at least one problem (or the directory is missing or empty), or the API could not be read

With --live, a service id the account does not have is a problem at its place
[unknown-service], with the closest id the service lists; only the services list is read.

Limits (each a problem with its own code):
  regular files inside the directory only; at most 512 KiB and 1,000 documents per file,
  32 levels of nesting, 10,000 values added by aliases; 100 problems listed per file

Examples:
  $ incident-sync validate
  $ incident-sync validate path/to/incidents --format json
  $ incident-sync validate --format github    # in a GitHub Actions step
  $ incident-sync validate --stack staging     # and which incidents staging declares
  $ MONITORING_API_URL=… MONITORING_API_KEY=… incident-sync validate --live`,
    )
    .action(
      action<ValidateFlags, [string]>(async (io, flags, [dir]) => {
        const { runValidate } = await import("./validate.js");
        const live = flags.live
          ? (await import("../api-connection.js")).resolveApiConnection(flags, io.env, {
              from: (await import("node:path")).resolve(io.cwd, dir),
              stack: flags.stack,
            })
          : undefined;
        return runValidate({ dir, format: flags.format, stack: flags.stack, live }, io);
      }),
    );
}
