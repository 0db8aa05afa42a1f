import { Command } from "commander";
import { type ApiFlags, addApiOptions } from "../api-options";
import { definitionsDirArgument } from "../definitions-dir-argument";
import { formatOption } from "../formats";
import { action } from "../run-command";
import { IMPORT_FORMATS, type ImportFormat } from "./import-options";

interface ImportFlags extends ApiFlags {
  all?: boolean;
  allowPartial?: boolean;
  format: ImportFormat;
}

/** `incident-sync import [dir]`; the work is in `./import`, loaded when the command runs. */
export function importCommand(): Command {
  const command = new Command("import")
    .description(
      "Bring a status page into git: write services.yaml with every service of the account, and one definition per open incident (--all: resolved ones too) with the updates customers have read. Reads the service, writes nothing there, and overwrites no file.",
    )
    .addArgument(
      definitionsDirArgument("the definitions directory to write into (created if missing)"),
    )
    .option("--all", "also import the resolved incidents")
    .option(
      "--allow-partial",
      "exit 0 even when some incidents are left out, as no valid definition can hold them",
    )
    .addOption(formatOption(IMPORT_FORMATS, "text", "text for people, json for tools"));
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
What it reads: the services list, the status pages (their cards group services.yaml), and
the incident list with each incident's updates, a page at a time (progress on stderr).

What it writes, in the definitions directory:
  services.yaml     every service by id with the name the status page shows; when the
                    directory has a catalog already, it is kept and nothing is added to it
  <name>.yaml       one per incident, named after it (a name taken gets a piece of its id):
                    its id, name, severity, services by id, and updates: each update's
                    status, message as written (a literal block for several lines) and
                    the date customers see (at), oldest first
A file that exists is never overwritten, and an incident the directory defines already
(by its id) is not written again: a second run writes nothing; one the list repeats is
written once. Every file written passes validate. An incident no valid definition can
hold (a hidden character such as a bidi control in its name or a message, a message too
long for a definitions file, a severity this tool does not know, an update without an id)
is named with the reason, and not written. Messages are written with LF line ends; emoji,
U+2028 and U+FEFF are kept. A definition holds an incident's 100 latest updates, as the
service lists them; one with more says so in a comment.

Exit codes:
  0  written, or nothing to write
  1  some incidents left out (the others written; --allow-partial: exit 0), or an error:
     missing settings, auth, network, invalid definitions already in the directory, or a
     file in the way (then nothing is written)

Examples:
  $ MONITORING_API_URL=… MONITORING_API_KEY=… incident-sync import
  $ incident-sync import --all --format json
  $ incident-sync import status/incidents && incident-sync validate status/incidents`,
    )
    .action(
      action<ImportFlags, [string]>(async (io, flags, [dir]) => {
        const { runImport } = await import("./import.js");
        return runImport(
          { ...flags, dir, all: flags.all === true, allowPartial: flags.allowPartial === true },
          io,
        );
      }),
    );
}
