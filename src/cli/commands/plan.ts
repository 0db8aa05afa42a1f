import path from "node:path";
import { loadDefinitionSources, readDefinitionsAtRef } from "../../definitions";
import { InvalidDefinitionsError } from "../../definitions/invalid-definitions-error";
import { buildPlan, type Plan, renderPlanMarkdown, renderPlanText, withFindings } from "../../plan";
import { ExitCode } from "../exit-codes";
import { jsonOutput } from "../formats";
import type { CommandIo } from "../io";
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
  if (head.problems.length > 0) throw new InvalidDefinitionsError(options.dir, head.problems);
  const atBase = await readDefinitionsAtRef(dir.absolute, options.base);
  const base = loadDefinitionSources(
    atBase.files.map((file) => ({ ...file, path: dir.show(path.resolve(file.path)) })),
  );
  const planned = buildPlan({
    dir: options.dir,
    stack: options.stack,
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
