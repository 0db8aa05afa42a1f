import { Command } from "commander";

/**
 * Builds the `incident-sync` command line. Each command lives in its own file under
 * `commands/` and registers itself here, so `--help` lists them all in one place.
 */
export function createProgram(): Command {
  const program = new Command("incident-sync")
    .description("Keep status-page incidents in git and check them against the monitoring API.")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ sortSubcommands: true });
  return program;
}
