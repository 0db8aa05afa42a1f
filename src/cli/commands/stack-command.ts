import { Command, Option } from "commander";
import { SETTINGS } from "../../settings/catalog";
import { addApiOptions } from "../api-options";
import { formatOption } from "../formats";
import { action } from "../run-command";
import { stackOption } from "../stack-option";
import { type Operation, STACK_FORMATS, type StackCommandFlags } from "./stack-options";

const STACK_HELP =
  "the stack as Pulumi names it: stack, org/stack or org/project/stack (default: the stack pulumi stack select chose; with --emulator, dev in the sandbox)";

const DESCRIPTIONS: Record<Operation, string> = {
  up: "Apply the definitions to the status page with the Pulumi engine (pulumi up of the project).",
  preview: "Show what up would change, without changing anything (pulumi preview of the project).",
  refresh:
    "Read the live status of every managed incident into the stack's state (pulumi refresh).",
};

/**
 * `up`, `preview` and `refresh` on the engine, against any API, the state in
 * PULUMI_BACKEND_URL or `--state`; the work (`./stack`) loads only when the command runs.
 */
export function stackCommand(operation: Operation): Command {
  const command = new Command(operation)
    .description(DESCRIPTIONS[operation])
    .option("--project <dir>", "project directory, holding Pulumi.yaml and the definitions", ".")
    .addOption(stackOption(STACK_HELP))
    .option(
      "--state <dir>",
      "keep the state in this directory (a self-managed file backend); default PULUMI_BACKEND_URL",
    )
    .option(
      "--emulator [dir]",
      "run against a local emulator: the demo seed plus your definitions' services and incidents, its data and a sandbox state in dir (default .incident-sync), never your stacks; what npm start does",
    )
    .addOption(
      new Option(
        "--enforce <mode>",
        "observed: apply what git or the status page changed; always: apply every incident",
      ).choices(["observed", "always"]),
    )
    .addOption(
      new Option(
        "--read-back <which>",
        "incidents read back every run: all, or open (fewer requests)",
      ).choices(["all", "open"]),
    )
    .addOption(
      new Option(
        "--outputs <which>",
        "the stack outputs of this run: summary (counts), or full (each incident); default the stack config's",
      ).choices(SETTINGS.outputs.values),
    )
    .addOption(
      formatOption(
        STACK_FORMATS,
        "text",
        "text for people, json for tools, markdown (or md) for a pull-request comment",
      ),
    );
  addApiOptions(command, "stack");
  if (operation === "up") {
    command.option(
      "--no-continue-on-error",
      "stop at the first incident that fails (default: apply the others)",
    );
  }
  if (operation === "preview") {
    command.option(
      "--refresh",
      "refresh the state first: changes made on the status page show as changes",
    );
  }
  if (operation !== "up") {
    command.option("--expect-no-changes", "fail (exit 1) when anything would change");
  }
  command.addHelpText("after", helpText(operation));
  command.action(
    action<StackCommandFlags>(async (io, flags) => {
      const { runStackCommand } = await import("./stack.js");
      return runStackCommand(operation, flags, io);
    }),
  );
  return command;
}

/** `cancel`: clears the lock of a stack whose run was killed. */
export function cancelCommand(): Command {
  return new Command("cancel")
    .description("Clear the lock of a stack after a run that was killed (self-managed backends).")
    .option("--project <dir>", "project directory, holding Pulumi.yaml", ".")
    .addOption(stackOption(STACK_HELP))
    .option("--state <dir>", "the state directory; default PULUMI_BACKEND_URL")
    .option("--emulator [dir]", "the stack of npm start (state in dir, default .incident-sync)")
    .option(
      "--force",
      "also clear the lock of a run that is still running on this machine (two runs then apply at once)",
    )
    .addHelpText(
      "after",
      `
A lock whose owner is a process of this machine that no longer runs is cleared by up,
preview and refresh on their own, with a notice. Use cancel for a lock held by a run on
another machine that was lost, once you know it is not running: whether a process of
another machine runs cannot be told from here. The lock of a run that is still running on
this machine is kept unless --force is given.

After a plain \`pulumi up\` was killed (kill -9, a lost CI runner), the next \`pulumi up\`
fails on its lock: run incident-sync cancel (or \`pulumi cancel\`), or let incident-sync up
clear it, which it does when the killed run was on this machine.

Exit codes: 0 cleared (or no lock), 1 error.`,
    )
    .action(
      action<StackCommandFlags>(async (io, flags) => {
        const { runCancel } = await import("./stack.js");
        return runCancel(flags, io);
      }),
    );
}

function helpText(operation: Operation): string {
  const exits =
    operation === "up"
      ? "  0  applied (or nothing to apply)\n  1  failed: invalid definitions, an incident that failed, a refused reopen, engine or API errors"
      : operation === "preview"
        ? "  0  nothing would change\n  1  failed (with --expect-no-changes: changes found)\n  2  changes would be applied"
        : "  0  the state matches the status page\n  1  failed (with --expect-no-changes: drift found)\n  2  the refresh changed the state (drift)";
  return `
Where the API is: --api-url, --account-id and MONITORING_API_KEY (or the MONITORING_API_URL,
MONITORING_ACCOUNT_ID environment variables) for this run only; without them, the stack config
(incident-sync:baseUrl, incident-sync:accountId, secret incident-sync:apiKey). The key is handed
to the engine on standard input and never printed.

Where the state is: --state DIR, else PULUMI_BACKEND_URL (file://, s3://, or Pulumi Cloud with
PULUMI_ACCESS_TOKEN). A passphrase secrets provider reads PULUMI_CONFIG_PASSPHRASE. Only up
creates a stack; preview and refresh of a stack that does not exist say how to create it.

With --emulator, the run is a sandbox: a local emulator holding the demo data, the services
your definitions name and, added with a note, each incident whose id it does not know; the
state, the stack's own settings file and the passphrase live in .incident-sync/, apart from
your stacks of the same name.

What the run can see on the status page: the status and the updates of each incident. The API
has no read of an incident, so a name, severity or services edit made there is invisible; it is
reverted only with --enforce always (one more request per incident per run).
A live RESOLVED is never reopened unless the definition says reopen: true.

Exit codes:
${exits}

Examples:
  $ incident-sync ${operation} --stack prod --state ./state --api-url https://api.example.com --account-id acct-1
  $ incident-sync ${operation} --emulator${operation === "preview" ? " --format md" : ""}`;
}
