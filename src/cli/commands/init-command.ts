import { Command, InvalidArgumentError, Option } from "commander";
import { STACK_NAME_PATTERN, STACK_NAME_RULE } from "../../definitions/stack-name";
import { SETTINGS } from "../../settings/catalog";
import { formatOption } from "../formats";
import { action } from "../run-command";
import { INIT_FORMATS, type InitFlags } from "./init-options";

/** `incident-sync init [dir]`; the work is in `./init`, loaded when the command runs. */
export function initCommand(): Command {
  return new Command("init")
    .description(
      "Write a working incident-sync project: Pulumi.yaml, the program, the stacks' files, .nvmrc, .gitignore, and a definitions directory with a services catalog and an example incident; with --ci github, the pipeline kit and what to set up on GitHub.",
    )
    .argument("[dir]", "the project directory (created if missing)", ".")
    .addOption(
      new Option(
        "--language <js|ts>",
        "the program's language (asked on a terminal; default js)",
      ).choices(["js", "ts"]),
    )
    .option(
      "--definitions-dir <dir>",
      "where the definitions live, inside the project",
      SETTINGS.definitionsDir.default,
    )
    .addOption(
      new Option(
        "--stack <name>",
        "a stack to prepare, as Pulumi names it (stack, org/stack, org/project/stack); repeat for several, in the order they are applied (default: prod)",
      ).argParser((value: string, previous: string[] | undefined) => {
        if (!STACK_NAME_PATTERN.test(value)) throw new InvalidArgumentError(`${STACK_NAME_RULE}.`);
        return [...(previous ?? []), value];
      }),
    )
    .option(
      "--name <project>",
      "the Pulumi project's name (default: package.json's name, else the folder's)",
    )
    .addOption(
      new Option("--ci <provider>", "also write the pipeline kit for this CI: github").choices([
        "github",
      ]),
    )
    .option(
      "--backend <url>",
      "the stacks' state backend, for the kit's checklist: https://api.pulumi.com (Pulumi Cloud), or s3://…, file://… (self-managed, with a passphrase)",
      "https://api.pulumi.com",
    )
    .addOption(formatOption(INIT_FORMATS, "text", "text for people, json for tools"))
    .addHelpText(
      "after",
      `
Nothing is overwritten: when a file init would write exists, it writes none and names it.
.gitignore is added to (node_modules/, .incident-sync/), never replaced. In a project with a
Pulumi.yaml already, --ci github adds the kit alone, in the layout Pulumi.yaml declares.

Exit codes: 0 written, 1 a file is in the way or an option is wrong.

Examples:
  $ npx incident-sync init
  $ npx incident-sync init --language ts --stack staging --stack prod --ci github
  $ npx incident-sync init status --definitions-dir incidents --stack acme/prod --ci github`,
    )
    .action(
      action<InitFlags, [string]>(async (io, flags, [dir]) => {
        const { runInit } = await import("./init.js");
        return runInit(dir, flags, io);
      }),
    );
}
