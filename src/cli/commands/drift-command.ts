import { Command } from "commander";
import type { DriftFormat } from "../../reports/drift/render";
import { type ApiFlags, addApiOptions } from "../api-options";
import { definitionsDirArgument } from "../definitions-dir-argument";
import { formatOption } from "../formats";
import { action } from "../run-command";
import { stackOption } from "../stack-option";

/** The report's formats (`src/reports/drift/render.ts`), listed here so --help loads no report code. */
const DRIFT_FORMATS = [
  "text",
  "json",
  "markdown",
  "github",
] as const satisfies readonly DriftFormat[];

interface DriftFlags extends ApiFlags {
  format: DriftFormat;
  since?: string;
  applied?: string;
  stack?: string;
  state?: string;
}

/** `incident-sync drift [dir]`; the work is in `./drift`, loaded when the command runs. */
export function driftCommand(): Command {
  const command = new Command("drift")
    .description(
      "Compare each definition's status, name, severity and services with the status page, and list updates posted outside git.",
    )
    .addArgument(definitionsDirArgument())
    .addOption(
      formatOption(
        DRIFT_FORMATS,
        "text",
        "text for people, json for bots, markdown (or md) for an issue, github for annotations",
      ),
    )
    .option(
      "--since <when>",
      "count updates after this time as outside git (30m, 24h, 7d or an ISO date); default: the last commit of each definition file",
    )
    .addOption(
      stackOption(
        "check what this Pulumi stack declares, with its state read (never written or locked): the incidents its up opened, by their ids, and what each last apply set and posted",
      ),
    )
    .option(
      "--state <dir>",
      "the stack's state directory (a file backend); default PULUMI_BACKEND_URL, else backend.url of Pulumi.yaml",
    )
    .option(
      "--applied <file>",
      "what each last apply set, so drift is right whatever the service's PUT does with the status: the stack's state (pulumi stack export), or the stack output `incidents` (pulumi stack output incidents --json, with incident-sync:outputs full)",
    );
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
For each incident drift reads the incident list (name, severity, services and updates) and,
for one the list does not show, its updates. The live status is the status of the newest
update that has one; a name, severity or services the status page shows otherwise than the
definition is drift too. These are the rules of the stack's \`drift\` output: one drift
model.

With --stack, drift reads that stack's state as \`pulumi stack export\` would (a file
backend's file directly, any other through the Pulumi CLI, read-only: no lock, nothing
written): an incident its \`up\` opened (a definition without \`id\`) is checked by the id the
state holds, the updates its applies posted are git's, not outside it, and what each last
apply set speaks over older updates (right whether or not the service's PUT posts an update).
A state file is read only when it is a regular file of at most 64 MiB, compressed or not, by
--deadline, and of the project and stack asked for: another's is refused, naming both.
--applied gives the same from a file instead (the stack's state from \`pulumi stack export\`,
or the stack output \`incidents\` of a stack with \`incident-sync:outputs full\`). A new
incident that neither names cannot be checked, and drift says so (exit 4).

Updates "outside git" are those posted after the last commit that touched the definition
file (or after --since); each is "expected" when its status matches the declaration (or it
is a comment without a status), "drift" when it differs. Only the live status and the
fields decide the exit code: an out-of-band update that was later put back to the declared
status is listed, but is not drift.

Formats: text (people), json (bots; the drift report schema), markdown (an issue or PR
comment), github (workflow-command annotations on the definition files, plus a Markdown
summary to $GITHUB_STEP_SUMMARY when it is set).

Exit codes:
  0  no drift (every incident checked: in sync, or its live status unknown)
  2  drift: an incident's live status, name, severity or services differ from its
     definition, or it does not exist
  4  no drift found, but not everything was checked: a new incident without the stack's
     state, or a --stack whose state could not be read or is another project's or stack's
     (the report says which and why)
  1  error: invalid definitions, missing settings, auth or network failure

On exit 1 the error is on stderr, and stdout holds it in the chosen format: a JSON
{"error": {type, message, problems?}} document, a Markdown block, or ::error annotations
(one per problem of an invalid definition, on its file and line).

Examples:
  $ MONITORING_API_KEY=… incident-sync drift
  $ incident-sync drift incidents --format json --since 24h
  $ incident-sync drift --format github   # in GitHub Actions
  $ incident-sync drift --stack prod      # what prod declares, with its state (PULUMI_BACKEND_URL)
  $ incident-sync drift --stack prod --state ./state
  $ pulumi stack export > state.json && incident-sync drift --applied state.json
  $ pulumi stack output incidents --json > applied.json && incident-sync drift --applied applied.json
`,
    )
    .action(
      action<DriftFlags, [string]>(async (io, flags, [dir]) => {
        const { runDrift } = await import("./drift.js");
        return runDrift({ ...flags, dir }, io);
      }),
    );
}
