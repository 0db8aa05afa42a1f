import { Command } from "commander";
import { type ApiFlags, addApiOptions } from "../api-options";
import { definitionsDirArgument } from "../definitions-dir-argument";
import { formatOption } from "../formats";
import { action } from "../run-command";
import { stackOption } from "../stack-option";
import { PLAN_FORMATS, type PlanFormat } from "./plan-options";

interface PlanFlags extends ApiFlags {
  base: string;
  format: PlanFormat;
  evidence?: boolean;
  stack?: string;
}

/** `incident-sync plan --base <ref> [dir]`; the work is in `./plan`, loaded when it runs. */
export function planCommand(): Command {
  const command = new Command("plan")
    .description(
      "Show what a change to the incident definitions means: incidents added, removed and changed field by field against a git ref, checked against the lifecycle policy.",
    )
    .addArgument(definitionsDirArgument())
    .requiredOption("--base <ref>", "git ref to compare with, e.g. origin/main or a commit id")
    .addOption(
      formatOption(
        PLAN_FORMATS,
        "text",
        "text for terminals, markdown (or md) for a pull-request comment, json for tools",
      ),
    )
    .addOption(stackOption("compare only the definitions of this Pulumi stack"))
    .option(
      "--evidence",
      "add a line per added or changed incident with what its evidence heartbeats and checks say now (needs the API settings)",
    );
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
Lifecycle policy:
  error    RESOLVED goes back to an open status without "reopen: true"
  error    severity is lowered without a new "reason"
  error    the incident id changes under the same resource name (a replace)
  error    a resource is renamed without its old name in "aliases"
  error    a posted entry of "updates" is removed, moved, restated or set to notify
  error    a "stacks" entry names no stack of the project (its Pulumi.<stack>.yaml files,
           a file:// backend's stacks)
  error    a change of "stacks" resolves the incident on a stack without a new "reason"
  warning  services are removed from an incident

Exit codes:
  0  nothing changed
  1  the definitions are invalid, or git failed (not a repository, unknown ref)
  2  there are changes and the policy passed
  3  the policy is violated

On exit 1 the error is on stderr, and stdout holds it in the chosen format: a JSON
{"error": {type, message, problems?}} document, or a Markdown block that starts with the
sticky-comment marker, so the pull-request comment shows what went wrong.

Examples:
  $ incident-sync plan --base origin/main
  $ incident-sync plan --base main incidents --format json
  $ incident-sync plan --base origin/main --stack prod    # only what the prod stack declares
  $ git fetch origin main && incident-sync plan --base origin/main --format markdown > plan.md
  $ MONITORING_API_URL=… MONITORING_API_KEY=… incident-sync plan --base origin/main --format markdown --evidence

With --evidence, each incident the change adds or updates gets one line, e.g.
  inc-api-errors: hb-nightly-backup FAILING since 02:10 UTC, success 71% over 24 h; chk-api: 3 new error groups in the last hour
A monitor that cannot be read is noted on its line; the exit code stays the plan's.`,
    )
    .action(
      action<PlanFlags, [string]>(
        async (io, flags, [dir]) => {
          const { runPlan } = await import("./plan.js");
          const evidence = flags.evidence
            ? {
                connection: (await import("../api-connection.js")).resolveApiConnection(
                  flags,
                  io.env,
                  { from: (await import("node:path")).resolve(io.cwd, dir), stack: flags.stack },
                ),
              }
            : undefined;
          return runPlan(
            {
              dir,
              base: flags.base,
              format: flags.format,
              stack: flags.stack,
              ...(evidence ? { evidence } : {}),
            },
            io,
          );
        },
        {
          markdownMarker: async () =>
            (await import("../../plan/render-markdown.js")).PLAN_COMMENT_MARKER,
        },
      ),
    );
}
