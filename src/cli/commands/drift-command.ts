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
}

/** `incident-sync drift [dir]`; the work is in `./drift`, loaded when the command runs. */
export function driftCommand(): Command {
  const command = new Command("drift")
    .description(
      "Compare each definition's declared status with the live one and list updates posted outside git.",
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
    .addOption(stackOption("check only the definitions this Pulumi stack declares"))
    .option(
      "--applied <file>",
      "what each last apply set, so drift is right whatever the service's PUT does with the status: the stack's state (pulumi stack export), or the stack output `incidents` (pulumi stack output incidents --json, with incident-sync:outputs full)",
    );
  addApiOptions(command);
  return command
    .addHelpText(
      "after",
      `
The live status of an incident is the status of its newest update that has one (the API
has no read of the incident itself). The service does not document whether a PUT that
changes the status also posts an update; if it only sets the field, an older update can
show a status the last apply has since changed. --applied (the stack's state from
\`pulumi stack export\`, or the stack output \`incidents\` of a stack with
\`incident-sync:outputs full\`) tells drift what each last apply set and when: updates posted
before it no longer count, which is right either way; an incident claimed but not yet
applied has no last apply. Pipelines that can read the stack should pass it.

Updates "outside git" are those posted after the last commit that touched the definition
file (or after --since); each is "expected" when its status matches the declaration (or it
is a comment without a status), "drift" when it differs. Only the live status decides the
exit code: an out-of-band update that was later put back to the declared status is listed,
but is not drift.

Formats: text (people), json (bots; the drift report schema), markdown (an issue or PR
comment), github (workflow-command annotations on the definition files, plus a Markdown
summary to $GITHUB_STEP_SUMMARY when it is set).

Exit codes:
  0  no drift (every incident in sync, or its live status unknown)
  2  drift: an incident's live status differs from its definition, or it does not exist
  1  error: invalid definitions, missing settings, auth or network failure

On exit 1 the error is on stderr, and stdout holds it in the chosen format: a JSON
{"error": {type, message, problems?}} document, a Markdown block, or ::error annotations
(one per problem of an invalid definition, on its file and line).

Examples:
  $ MONITORING_API_KEY=… incident-sync drift
  $ incident-sync drift incidents --format json --since 24h
  $ incident-sync drift --format github   # in GitHub Actions
  $ incident-sync drift --stack prod      # a tree shared by stacks: what prod declares
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
