import { readFileSync } from "node:fs";
import path from "node:path";
import {
  bareStackName,
  type KnownStacks,
  loadDefinitionSources,
  readDefinitionsAtRef,
  unappliedMaintenance,
  unknownStackEntries,
} from "../../definitions";
import { InvalidDefinitionsError } from "../../definitions/invalid-definitions-error";
import { buildPlan, type Plan, renderPlanMarkdown, renderPlanText, withFindings } from "../../plan";
import type { PlanStack } from "../../plan/stack-effects";
import { ExitCode } from "../exit-codes";
import { jsonOutput } from "../formats";
import type { CommandIo } from "../io";
import { projectStacks } from "../project-stacks";
import { fileBackendIncidentIds } from "../stack-state";
import { DefinitionsDir } from "./definitions-dir";
import type { EvidenceItem, EvidenceSource } from "./plan-evidence";
import type { PlanFormat } from "./plan-options";

export interface PlanOptions {
  /** The definitions directory in the working tree, relative to the working directory. */
  readonly dir: string;
  /** The git ref to compare with, such as `origin/main`. */
  readonly base: string;
  readonly format: PlanFormat;
  /** Compare only the definitions of this Pulumi stack (their `stacks` list). */
  readonly stack?: string | undefined;
  /** Add an evidence line per added or changed incident, read from the monitoring API. */
  readonly evidence?: EvidenceSource;
}

const VERDICT_EXIT: Record<Plan["verdict"], ExitCode> = {
  "no-changes": ExitCode.Ok,
  changes: ExitCode.Changes,
  "policy-violated": ExitCode.PolicyViolation,
};

/**
 * The plan of the working tree against `base`: 0 when nothing changed, 2 with changes, 3 when
 * the policy is violated; invalid definitions and git failures throw.
 */
export async function runPlan(options: PlanOptions, io: CommandIo): Promise<ExitCode> {
  const dir = new DefinitionsDir(io, options.dir);
  const head = await dir.load();
  // A maintenance window would stop `up`, so it stops the plan of what `up` does.
  const problems = [...head.problems, ...unappliedMaintenance(head.maintenance)];
  if (problems.length > 0) throw new InvalidDefinitionsError(options.dir, problems);
  const atBase = await readDefinitionsAtRef(dir.absolute, options.base);
  const base = loadDefinitionSources(
    atBase.files.map((file) => ({ ...file, path: dir.show(path.resolve(file.path)) })),
  );
  const { known, project, backendUrl } = projectStacks(dir.absolute, io.env, options.stack);
  const stackProblems = unknownStackEntries(head.definitions, known, (file) =>
    readFileSync(path.resolve(io.cwd, file), "utf8"),
  );
  const planned = buildPlan({
    dir: options.dir,
    stack: options.stack,
    stacks: planStacks(known),
    stackProblems,
    ...(options.stack !== undefined && backendUrl !== undefined && project?.name !== undefined
      ? { incidentIds: stackIncidentIds(backendUrl, project.name, options.stack) }
      : {}),
    head: head.definitions,
    base: {
      ref: options.base,
      commit: atBase.commit,
      definitions: base.definitions,
      // A link at the base that is not followed is a problem there, as in the working tree.
      problems: [...base.problems, ...atBase.problems],
    },
  });
  // The evidence reads the API: its code loads only when it is asked for.
  const read = options.evidence
    ? await (await import("./plan-evidence.js")).planEvidence(planned, options.evidence)
    : undefined;
  const plan = read ? withFindings(planned, read.findings) : planned;
  const evidence = read?.items;
  io.stdout.write(await render(plan, options, evidence));
  return VERDICT_EXIT[plan.verdict];
}

async function render(
  plan: Plan,
  options: PlanOptions,
  evidence: EvidenceItem[] | undefined,
): Promise<string> {
  const lines = evidence ? await import("../../reports/evidence/line.js") : undefined;
  switch (options.format) {
    case "json":
      return jsonOutput(evidence ? { ...plan, evidence } : plan);
    case "markdown":
      return (
        renderPlanMarkdown(plan) +
        (evidence && lines
          ? lines.evidenceMarkdown(evidence, options.evidence?.now ?? new Date())
          : "")
      );
    case "text":
      return renderPlanText(plan) + (evidence && lines ? lines.evidenceText(evidence) : "");
  }
}

/** The project's stacks as a plan names them: each once, by its own name. */
function planStacks(known: KnownStacks): PlanStack[] {
  const stacks = new Map<string, PlanStack>();
  for (const ref of known.stacks)
    if (!stacks.has(ref.stack)) stacks.set(ref.stack, { name: ref.stack, ref });
  return [...stacks.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The ids a stack's state gives its incidents, where it can be read (a `file://` backend). */
function stackIncidentIds(
  backendUrl: string,
  project: string,
  stack: string,
): ReadonlyMap<string, string> | undefined {
  if (!backendUrl.startsWith("file://")) return undefined;
  return fileBackendIncidentIds(backendUrl, project, bareStackName(stack));
}
