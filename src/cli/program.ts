import { Command } from "commander";
import { PACKAGE_VERSION } from "../package-version";
import { driftCommand } from "./commands/drift";
import { emulatorCommand } from "./commands/emulator";
import { planCommand } from "./commands/plan";
import { reportCommand } from "./commands/report";
import { validateCommand } from "./commands/validate";

/**
 * Builds the `incident-sync` command line. Each command lives in its own file under
 * `commands/` and registers itself here, so `--help` lists them all in one place.
 */
export function createProgram(): Command {
  const program = new Command("incident-sync")
    .description("Keep status-page incidents in git and check them against the monitoring API.")
    .showHelpAfterError("(run with --help for usage)")
    .version(PACKAGE_VERSION)
    .configureHelp({ sortSubcommands: true })
    .addHelpText("after", OVERVIEW);
  program.addCommand(validateCommand());
  program.addCommand(planCommand());
  program.addCommand(driftCommand());
  program.addCommand(reportCommand());
  program.addCommand(emulatorCommand());
  return program;
}

const OVERVIEW = `
Commands that talk to the API read MONITORING_API_URL, MONITORING_API_KEY and
MONITORING_ACCOUNT_ID, or --api-url, --api-key and --account-id. The key is never printed.

Exit codes: 0 ok, 1 error (bad input, auth, network, git), 2 changes or drift found
(plan, drift), 3 lifecycle policy violated (plan).

Examples:
  $ incident-sync validate incidents --format github
  $ incident-sync plan --base origin/main --format markdown
  $ incident-sync drift incidents
  $ incident-sync report errors --check chk-api --format html --out errors.html
  $ incident-sync emulator --port 4010 --seed demo

Run "incident-sync <command> --help" for each command's options and examples.`;
