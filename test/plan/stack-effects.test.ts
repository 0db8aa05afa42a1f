import { describe, expect, it } from "vitest";
import { parseStackName } from "../../src/definitions";
import { buildPlan, type Plan, renderPlanText } from "../../src/plan";
import { definitionYaml, load } from "../definitions/helpers";

function plan(
  base: Record<string, string>,
  head: Record<string, string>,
  stacks: readonly string[] = [],
): Plan {
  const before = load(base);
  const after = load(head);
  expect(after.problems).toEqual([]);
  return buildPlan({
    dir: "incidents",
    head: after.definitions,
    base: { ref: "main", commit: "0123456789abcdef", ...before },
    stacks: stacks.map((name) => ({ name, ref: parseStackName(name) })),
  });
}

const resolving = definitionYaml({ onRemove: "resolve" });
const effects = (result: Plan) =>
  result.changes.flatMap((change) => (change.kind === "update" ? (change.stacks ?? []) : []));

describe("what a change of stacks does, stack by stack", () => {
  it("with no stack of the project known, names the stacks the lists name and every other stack together", () => {
    const result = plan(
      { "incidents/a.yaml": resolving },
      { "incidents/a.yaml": `${resolving}stacks: [staging]\n` },
    );
    // staging declared it before (every stack did) and still does: only the others change.
    expect(effects(result)).toEqual([{ stack: "every other stack", effect: "resolved" }]);
    expect(result.findings.map((finding) => finding.rule)).toEqual(["stacks-change-resolves"]);
    expect(renderPlanText(result)).toContain("on every other stack: resolved on the status page");
  });

  it("adds and takes away stack by stack, among the project's stacks", () => {
    const result = plan(
      { "incidents/a.yaml": `${resolving}stacks: [prod, qa]\n` },
      { "incidents/a.yaml": `${resolving}stacks: [prod, staging]\n` },
      ["prod", "qa", "staging"],
    );
    expect(effects(result)).toEqual([
      { stack: "qa", effect: "resolved" },
      { stack: "staging", effect: "added" },
    ]);
    expect(result.findings.find((f) => f.rule === "stacks-change-resolves")?.message).toContain(
      "takes the incident off stack qa",
    );
  });

  it("passes a change of stacks that resolves nothing, and one that gives a new reason", () => {
    const releasing = definitionYaml();
    expect(
      plan(
        { "incidents/a.yaml": releasing },
        { "incidents/a.yaml": `${releasing}stacks: [staging]\n` },
        ["prod", "staging"],
      ).verdict,
    ).toBe("changes");
    const meant = plan(
      { "incidents/a.yaml": resolving },
      { "incidents/a.yaml": `${resolving}stacks: [staging]\nreason: Fixed in prod\n` },
      ["prod", "staging"],
    );
    expect(meant.verdict).toBe("changes");
    expect(effects(meant)).toEqual([{ stack: "prod", effect: "resolved" }]);
  });
});
