import { Command } from "commander";
import {
  buildPlan,
  type DefinitionProblem,
  formatLocation,
  loadDefinitionSources,
  loadDefinitions,
  PLAN_COMMENT_MARKER,
  type Plan,
  readDefinitionsAtRef,
  renderPlanMarkdown,
  renderPlanText,
} from "../../definitions";
import { ExitCode } from "../exit-codes";
import { type CommandResult, emit, formatOption, jsonOutput, plural } from "../format";

export const PLAN_FORMATS = ["text", "markdown", "json"] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export interface PlanOptions {
  /** The definitions directory in the working tree. */
  readonly dir: string;
  /** The git ref to compare with, such as `origin/main`. */
  readonly base: string;
  readonly format: PlanFormat;
}

const VERDICT_EXIT: Record<Plan["verdict"], ExitCode> = {
  "no-changes": ExitCode.Ok,
  changes: ExitCode.Changes,
  "policy-violated": ExitCode.PolicyViolation,
};

/**
 * Compares the definitions at `base` (read with git) with the working tree. Exit 0 when
 * nothing changed, 2 with changes, 3 when the lifecycle policy is violated, 1 when the
 * working-tree definitions are invalid. Git failures throw a `GitSourceError`.
 */
export async function runPlan(options: PlanOptions): Promise<CommandResult> {
  const head = await loadDefinitions(options.dir);
  if (head.problems.length > 0) {
    return { exitCode: ExitCode.Failure, output: invalidOutput(options, head.problems) };
  }
  const atBase = await readDefinitionsAtRef(options.dir, options.base);
  const base = loadDefinitionSources(atBase.files);
  const plan = buildPlan({
    dir: options.dir,
    head: head.definitions,
    base: {
      ref: options.base,
      commit: atBase.commit,
      definitions: base.definitions,
      problems: base.problems,
    },
  });
  const exitCode = VERDICT_EXIT[plan.verdict];
  switch (options.format) {
    case "json":
      return { exitCode, output: jsonOutput(plan) };
    case "markdown":
      return { exitCode, output: renderPlanMarkdown(plan) };
    default:
      return { exitCode, output: renderPlanText(plan) };
  }
}

/** The working tree must be valid to plan; say so in the format the caller reads. */
function invalidOutput(options: PlanOptions, problems: readonly DefinitionProblem[]): string {
  const headline = `The definitions in ${options.dir} are not valid (${plural(problems.length, "problem")}); fix them and run plan again.`;
  switch (options.format) {
    case "json":
      return jsonOutput({ verdict: "invalid", dir: options.dir, problems });
    case "markdown":
      return `${[
        PLAN_COMMENT_MARKER,
        "### incident-sync plan: definitions are not valid",
        "",
        `❌ ${headline}`,
        "",
        ...problems.map((problem) => `- \`${formatLocation(problem)}\` ${problem.message}`),
      ].join("\n")}\n`;
    default:
      return `${[headline, ...problems.map((problem) => `${formatLocation(problem)}: ${problem.message} [${problem.code}]`)].join("\n")}\n`;
  }
}

export function planCommand(): Command {
  return new Command("plan")
    .description(
      "Show what a change to the incident definitions means: incidents added, removed and changed field by field against a git ref, checked against the lifecycle policy.",
    )
    .argument("[dir]", "directory holding the definitions (searched recursively)", "incidents")
    .requiredOption("--base <ref>", "git ref to compare with, e.g. origin/main or a commit id")
    .addOption(
      formatOption(
        PLAN_FORMATS,
        "text",
        "text for terminals, markdown for a pull-request comment, json for tools",
      ),
    )
    .addHelpText(
      "after",
      `
Lifecycle policy:
  error    RESOLVED goes back to an open status without "reopen: true"
  error    severity is lowered without a new "reason"
  error    the incident id changes under the same resource name (a replace)
  warning  services are removed from an incident

Exit codes:
  0  nothing changed
  1  the definitions are invalid, or git failed (not a repository, unknown ref)
  2  there are changes and the policy passed
  3  the policy is violated

Examples:
  $ incident-sync plan --base origin/main
  $ incident-sync plan --base main incidents --format json
  $ git fetch origin main && incident-sync plan --base origin/main --format markdown > plan.md`,
    )
    .action(async (dir: string, options: { base: string; format: PlanFormat }) => {
      emit(await runPlan({ dir, base: options.base, format: options.format }));
    });
}
