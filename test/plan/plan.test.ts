import { describe, expect, it } from "vitest";
import { buildPlan, renderPlanMarkdown, renderPlanText } from "../../src/plan";
import { definitionYaml, load } from "../definitions/helpers";
import { planOf } from "./plan-of";

const api = definitionYaml();
const checkout = definitionYaml({
  id: "inc-checkout-latency",
  name: "Slow checkout",
  severity: "MEDIUM",
  status: "MONITORING",
  services: "\n  - { id: svc-checkout, name: Checkout }\n  - { id: svc-web, name: Web app }",
});

describe("plan's comparison", () => {
  it("finds nothing when definitions only moved between files or changed order", () => {
    const result = planOf(
      { "incidents/a.yaml": api, "incidents/b.yaml": checkout },
      {
        "incidents/all.yaml": `${checkout.replace(
          "  - { id: svc-checkout, name: Checkout }\n  - { id: svc-web, name: Web app }",
          "  - { name: Web app, id: svc-web }\n  - { id: svc-checkout, name: Checkout }",
        )}---\n${api}`,
      },
    );
    expect(result.verdict).toBe("no-changes");
    expect(result.summary).toEqual({
      add: 0,
      update: 0,
      remove: 0,
      unchanged: 2,
      errors: 0,
      warnings: 0,
    });
  });

  it("lists added and removed incidents with what removal does on the status page", () => {
    const result = planOf(
      {
        "incidents/a.yaml": api,
        "incidents/gone.yaml": definitionYaml({ id: "inc-gone", onRemove: "resolve" }),
      },
      { "incidents/a.yaml": api, "incidents/b.yaml": checkout },
    );
    expect(result.changes.map((change) => `${change.kind} ${change.incidentId}`)).toEqual([
      "add inc-checkout-latency",
      "remove inc-gone",
    ]);
    expect(result.changes[1]).toMatchObject({ kind: "remove", onRemove: "resolve" });
    expect(result.verdict).toBe("changes");
  });

  it("shows each changed field old to new and services added, removed and renamed by id", () => {
    const result = planOf(
      { "incidents/b.yaml": checkout },
      {
        "incidents/b.yaml": definitionYaml({
          id: "inc-checkout-latency",
          name: "Slow checkout for some customers",
          severity: "MAJOR",
          status: "IDENTIFIED",
          services:
            "\n  - { id: svc-checkout, name: Checkout service }\n  - { id: svc-api, name: Public API }",
          evidence: "\n  checks: [chk-checkout]",
        }),
      },
    );
    expect(renderPlanText(result)).toMatchInlineSnapshot(`
      "Plan for incidents/ against main (0123456789ab): 1 to update, 0 unchanged.

      ~ Slow checkout for some customers (inc-checkout-latency) in incidents/b.yaml
          name: Slow checkout → Slow checkout for some customers
          severity: MEDIUM → MAJOR
          status: MONITORING → IDENTIFIED
          services: + Public API (svc-api)
          services: - Web app (svc-web)
          services (svc-checkout) name: Checkout → Checkout service
          evidence.checks: + chk-checkout

      Policy passed: 1 warning.
        warning Slow checkout for some customers (inc-checkout-latency) [services-removed] service Web app (svc-web) no longer shows this incident on the status page.
      "
    `);
    // In the comment's table an added or removed service says so, not only by an empty cell.
    const rows = renderPlanMarkdown(result)
      .split("\n")
      .filter((line) => line.startsWith("| services") || line.startsWith("| evidence"));
    expect(rows).toEqual([
      "| services (+) |  | Public API (svc-api) |",
      "| services (−) | Web app (svc-web) |  |",
      "| services (svc-checkout) name | Checkout | Checkout service |",
      "| evidence.checks (+) |  | chk-checkout |",
    ]);
  });

  it("compares a broken base by its valid definitions and reports the rest", () => {
    const result = planOf(
      { "incidents/a.yaml": api, "incidents/b.yaml": "id: [" },
      { "incidents/a.yaml": api },
    );
    expect(result.verdict).toBe("no-changes");
    expect(result.baseProblems.map((problem) => problem.file)).toEqual(["incidents/b.yaml"]);
  });
});

describe("plan's lifecycle policy", () => {
  const resolved = definitionYaml({ status: "RESOLVED" });

  it("rejects a resolved incident going back to an open status without reopen: true", () => {
    const rejected = planOf({ "incidents/a.yaml": resolved }, { "incidents/a.yaml": api });
    expect(rejected.verdict).toBe("policy-violated");
    expect(
      rejected.findings.map((finding) => `${finding.level} ${finding.rule}: ${finding.message}`),
    ).toMatchInlineSnapshot(`
      [
        "error reopen-without-flag: status goes from RESOLVED back to IDENTIFIED; add "reopen: true" to reopen a resolved incident on purpose.",
      ]
    `);
    const allowed = planOf(
      { "incidents/a.yaml": resolved },
      { "incidents/a.yaml": definitionYaml({ reopen: "true" }) },
    );
    expect(allowed.verdict).toBe("changes");
    expect(allowed.findings).toEqual([]);
  });

  it("rejects a severity downgrade unless a new reason comes with it", () => {
    const minor = (fields: Record<string, string> = {}) =>
      definitionYaml({ severity: "MINOR", ...fields });
    const rejected = planOf({ "incidents/a.yaml": api }, { "incidents/a.yaml": minor() });
    const stale = planOf(
      { "incidents/a.yaml": definitionYaml({ reason: "First report" }) },
      { "incidents/a.yaml": minor({ reason: "First report" }) },
    );
    const allowed = planOf(
      { "incidents/a.yaml": api },
      { "incidents/a.yaml": minor({ reason: "Only EU customers are affected" }) },
    );
    const upgrade = planOf({ "incidents/a.yaml": minor() }, { "incidents/a.yaml": api });
    expect(
      [...rejected.findings, ...stale.findings].map((finding) => finding.message),
    ).toMatchInlineSnapshot(`
      [
        "severity is lowered from MAJOR to MINOR without a reason; add a "reason" that says why.",
        "severity is lowered from MAJOR to MINOR but "reason" is unchanged from before; update it to say why.",
      ]
    `);
    expect([allowed.verdict, upgrade.verdict]).toEqual(["changes", "changes"]);
  });

  it("warns when services are removed, without failing the plan", () => {
    const result = planOf(
      { "incidents/b.yaml": checkout },
      { "incidents/b.yaml": checkout.replace("  - { id: svc-web, name: Web app }\n", "") },
    );
    expect(result.verdict).toBe("changes");
    expect(
      result.findings.map((finding) => `${finding.level} ${finding.rule}: ${finding.message}`),
    ).toMatchInlineSnapshot(`
      [
        "warning services-removed: service Web app (svc-web) no longer shows this incident on the status page.",
      ]
    `);
  });

  it("rejects a new incident id under the same resource name as a replace", () => {
    const result = planOf(
      { "incidents/a.yaml": definitionYaml({ resource: "api", status: "RESOLVED" }) },
      { "incidents/a.yaml": definitionYaml({ resource: "api", id: "inc-api-errors-2" }) },
    );
    expect(result.changes[0]).toMatchObject({ kind: "update", replace: true });
    expect(
      result.findings.map((finding) => `${finding.level} ${finding.rule}: ${finding.message}`),
    ).toMatchInlineSnapshot(`
      [
        "error incident-id-changed: the incident id changed from "inc-api-errors" to "inc-api-errors-2" under resource "api", which replaces the incident: "inc-api-errors" would be released and "inc-api-errors-2" taken over. Keep the id, or remove this definition and add a new one with its own resource name.",
      ]
    `);
  });
});

describe("plan's Markdown comment", () => {
  it("starts with the sticky marker, the counts and the verdict, and puts details in tables below", () => {
    const result = planOf(
      { "incidents/a.yaml": definitionYaml({ status: "RESOLVED" }), "incidents/b.yaml": checkout },
      {
        "incidents/a.yaml": definitionYaml({ name: "Errors | timeouts <b>on</b> the API" }),
        "incidents/c.yaml": definitionYaml({ id: "inc-new", severity: "MINOR" }),
      },
    );
    expect(renderPlanMarkdown(result)).toMatchInlineSnapshot(`
      "<!-- incident-sync-plan -->
      ### incident-sync plan: 1 to add, 1 to update, 1 to remove

      ❌ **Policy violated**: 1 error. Fix the errors below before merging.

      Compared \`incidents/\` at \`main\` (\`0123456789ab\`) with this branch; 0 unchanged.

      #### Policy

      | Level | Incident | Rule | Finding |
      |---|---|---|---|
      | ❌ error | Errors \\| timeouts \\<b\\>on\\</b\\> the API (inc-api-errors) | \`reopen-without-flag\` | status goes from RESOLVED back to IDENTIFIED; add "reopen: true" to reopen a resolved incident on purpose. |

      #### Changes

      | Change | Incident | File |
      |---|---|---|
      | ✏️ update | Errors \\| timeouts \\<b\\>on\\</b\\> the API (inc-api-errors) | \`incidents/a.yaml\` |
      | ➖ remove | Slow checkout (inc-checkout-latency) | \`incidents/b.yaml\` |
      | ➕ add | Elevated error rates on the Public API (inc-new) | \`incidents/c.yaml\` |

      ##### ✏️ update Errors \\| timeouts \\<b\\>on\\</b\\> the API (inc-api-errors)

      | Field | Before | After |
      |---|---|---|
      | name | Elevated error rates on the Public API | Errors \\| timeouts \\<b\\>on\\</b\\> the API |
      | status | RESOLVED | IDENTIFIED |

      ##### ➖ remove Slow checkout (inc-checkout-latency)

      Released: left on the status page as it is, no longer managed (\`onRemove: release\`).

      ##### ➕ add Elevated error rates on the Public API (inc-new)

      | Field | Value |
      |---|---|
      | name | Elevated error rates on the Public API |
      | severity | MINOR |
      | status | IDENTIFIED |
      | services | Public API (svc-api) |
      "
    `);
  });
});

describe("plan and renamed resources (issue 26)", () => {
  const open = definitionYaml({ resource: "old-name", onRemove: "resolve" });
  const renamed = (extra: Record<string, string> = {}) =>
    definitionYaml({ resource: "new-name", onRemove: "resolve", ...extra });

  it("flags a rename without an alias, naming both resources and the fix, and says the incident is released", () => {
    const result = planOf({ "incidents/a.yaml": open }, { "incidents/a.yaml": renamed() });
    expect(result.verdict).toBe("policy-violated");
    expect(result.findings).toEqual([
      {
        level: "error",
        rule: "renamed-without-alias",
        resource: "new-name",
        incidentId: "inc-api-errors",
        name: "Elevated error rates on the Public API",
        file: "incidents/a.yaml",
        message:
          'resource "old-name" is renamed to "new-name" without an alias: Pulumi would create "new-name" and delete "old-name" (which releases the incident, whatever onRemove says). Add `aliases: [old-name]` to the definition of "new-name" to make the rename a no-op.',
      },
    ]);
    const removal = result.changes.find((change) => change.kind === "remove");
    expect(removal).toMatchObject({ onRemove: "release", redeclaredBy: "new-name" });
    const text = renderPlanText(result);
    expect(text).toContain(
      "released: resource new-name declares this incident now, so it is left on the status page as it is, whatever onRemove says",
    );
    expect(renderPlanMarkdown(result)).toContain("renamed-without-alias");
  });

  it("shows a rename with an alias as a change of the resource name alone, which applies nothing", () => {
    const result = planOf(
      { "incidents/a.yaml": open },
      { "incidents/a.yaml": renamed({ aliases: "[old-name]" }) },
    );
    expect(result.findings).toEqual([]);
    expect(result.verdict).toBe("changes");
    expect(result.changes).toHaveLength(1);
    expect(result.changes[0]).toMatchObject({
      kind: "update",
      resource: "new-name",
      applies: false,
      fields: [{ field: "resource", before: "old-name", after: "new-name" }],
    });
  });

  it("compares only a stack's definitions with --stack, on both sides", () => {
    const staging = definitionYaml({ id: "inc-staging", stacks: "[staging]" });
    const everywhere = definitionYaml({ id: "inc-all" });
    const base = { "incidents/a.yaml": everywhere };
    const head = { "incidents/a.yaml": `${everywhere}---\n${staging}` };
    const forStack = (stack: string) =>
      buildPlan({
        dir: "incidents",
        stack,
        head: load(head).definitions,
        base: { ref: "main", commit: "0123456789abcdef", ...load(base) },
      });
    expect(forStack("prod").verdict).toBe("no-changes");
    expect(forStack("staging").changes.map((change) => [change.kind, change.incidentId])).toEqual([
      ["add", "inc-staging"],
    ]);
    expect(renderPlanText(forStack("staging"))).toContain("Plan for incidents/ (stack staging)");
    // Without --stack, moving a definition between stacks is a change reviewers see.
    const moved = planOf(
      { "incidents/a.yaml": staging },
      { "incidents/a.yaml": staging.replace("[staging]", "[staging, prod]") },
    );
    expect(moved.changes[0]).toMatchObject({
      kind: "update",
      fields: [{ field: "stacks", before: "staging", after: "staging, prod" }],
    });
  });
});
