import { Command } from "commander";
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
    .configureHelp({ sortSubcommands: true });
  program.addCommand(validateCommand());
  program.addCommand(planCommand());
  program.addCommand(driftCommand());
  program.addCommand(reportCommand());
  program.addCommand(emulatorCommand());
  return program;
}
