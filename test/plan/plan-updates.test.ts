import { describe, expect, it } from "vitest";
import { renderPlanMarkdown, renderPlanText } from "../../src/plan";
import { planOf } from "./plan-of";

/** A new incident (no id) with `entries` as its updates, each `[status, message, notify?]`. */
function opening(entries: readonly [string, string, boolean?][], extra = ""): string {
  return [
    "resource: checkout-down",
    "name: Checkout fails",
    "severity: MAJOR",
    "services: [{ id: svc-checkout, name: Checkout }]",
    "updates:",
    ...entries.flatMap(([status, message, notify]) => [
      `  - status: ${status}`,
      `    message: ${JSON.stringify(message)}`,
      ...(notify ? ["    notify: true"] : []),
    ]),
    extra,
  ].join("\n");
}

const FIRST: [string, string, boolean] = [
  "INVESTIGATING",
  "Card payments fail at checkout.\nWe are looking into it.",
  true,
];
const SECOND: [string, string] = ["IDENTIFIED", "A bad deploy; we are rolling it back."];

describe("plan of what customers will read", () => {
  it("shows a new incident's messages verbatim, each with its status and whether it notifies", () => {
    const result = planOf({}, { "incidents/checkout.yaml": opening([FIRST, SECOND]) });
    expect(result.changes[0]).toMatchObject({ kind: "add", incidentId: "(new: checkout-down)" });
    expect(renderPlanText(result)).toMatchInlineSnapshot(`
      "Plan for incidents/ against main (0123456789ab): 1 to add, 0 unchanged.

      + Checkout fails (new: checkout-down) in incidents/checkout.yaml
          name: Checkout fails
          severity: MAJOR
          status: IDENTIFIED
          services: Checkout (svc-checkout)
          updates[0] posted, and sent to every subscriber: INVESTIGATING
            | Card payments fail at checkout.
            | We are looking into it.
          updates[1] posted (notifies nobody): IDENTIFIED
            | A bad deploy; we are rolling it back.

      Policy passed: no findings.
      "
    `);
  });

  it("shows a new entry to post and an edited one with its old and new text, and passes", () => {
    const base = opening([FIRST, SECOND]);
    const head = opening([
      [FIRST[0], FIRST[1].replace("Card payments", "Some card payments"), true],
      SECOND,
      ["RESOLVED", "Checkouts work again.", true],
    ]);
    const result = planOf({ "incidents/checkout.yaml": base }, { "incidents/checkout.yaml": head });
    expect(result.verdict).toBe("changes");
    const text = renderPlanText(result);
    expect(text).toContain(
      [
        "    updates[0] changed in place (notifies nobody): INVESTIGATING",
        "      was:",
        "      | Card payments fail at checkout.",
        "      | We are looking into it.",
        "      now:",
        "      | Some card payments fail at checkout.",
        "      | We are looking into it.",
        "    updates[2] posted, and sent to every subscriber: RESOLVED",
        "      | Checkouts work again.",
      ].join("\n"),
    );
    const markdown = renderPlanMarkdown(result);
    expect(markdown).toContain(
      "🔔 **updates\\[2\\] posted, and sent to every subscriber: RESOLVED**\n\n> Checkouts work again.",
    );
    expect(markdown).toContain("Before:\n\n> Card payments fail at checkout.");
  });

  it("refuses to remove, reorder, restate or newly notify a posted entry, with the fix (exit 3)", () => {
    const base = opening([FIRST, SECOND]);
    const cases: [string, string, string][] = [
      [opening([FIRST]), "posted-update-removed", "updates[1]"],
      [opening([SECOND, FIRST]), "posted-updates-reordered", "updates[0]"],
      [opening([FIRST, ["MONITORING", SECOND[1]]]), "posted-update-status-changed", "updates[1]"],
      [opening([FIRST, [SECOND[0], SECOND[1], true]]), "posted-update-notify", "updates[1]"],
    ];
    for (const [head, rule, entry] of cases) {
      const result = planOf(
        { "incidents/checkout.yaml": base },
        { "incidents/checkout.yaml": head },
      );
      expect(result.verdict, rule).toBe("policy-violated");
      expect(result.findings.map((finding) => finding.rule)).toContain(rule);
      expect(result.findings.find((finding) => finding.rule === rule)?.message).toContain(entry);
    }
    const removed = planOf(
      { "incidents/checkout.yaml": base },
      { "incidents/checkout.yaml": opening([FIRST]) },
    );
    expect(removed.findings[0]?.message).toMatchInlineSnapshot(
      `"updates[1] ("A bad deploy; we are rolling it back.") is posted, and is no longer declared: customers have read it, and it stays on the status page. Put the entry back (edit its message to correct it) and add a new entry to say more."`,
    );
  });

  it("calls a posted entry taken out of the middle a removal, not a status change and a reorder of the ones after it", () => {
    const third: [string, string] = ["RESOLVED", "Checkouts work again."];
    const result = planOf(
      { "incidents/checkout.yaml": opening([FIRST, SECOND, third]) },
      { "incidents/checkout.yaml": opening([FIRST, third]) },
    );
    expect(result.verdict).toBe("policy-violated");
    // One finding, about the entry that went, and a fix that puts it back.
    expect(result.findings.map((finding) => finding.rule)).toEqual(["posted-update-removed"]);
    const [removal] = result.findings;
    expect(removal?.message).toMatch(
      /^updates\[1\] \("A bad deploy.*"\) is posted, and is no longer declared/,
    );
    expect(removal?.message).toMatch(/Put the entry back/);
    expect(removal?.message).not.toMatch(/keeps its status|Put IDENTIFIED back|order/);
  });

  it("tells a posted entry newly set to notify to remove what it added, not to set back what was never written", () => {
    const result = planOf(
      { "incidents/checkout.yaml": opening([FIRST, SECOND]) },
      { "incidents/checkout.yaml": opening([FIRST, [SECOND[0], SECOND[1], true]]) },
    );
    const finding = result.findings.find((each) => each.rule === "posted-update-notify");
    expect(finding?.message).toMatch(/remove its "notify: true"/);
    expect(finding?.message).not.toMatch(/notify: false/);
  });

  it("shows a message that ends in a line break as customers read it, with no empty quoted line", () => {
    const result = planOf(
      {},
      {
        "incidents/checkout.yaml": opening([
          ["INVESTIGATING", "Card payments fail.\n\nWe are looking into it.\n"],
        ]),
      },
    );
    expect(
      renderPlanText(result)
        .split("\n")
        .filter((line) => line.includes("|")),
    ).toMatchInlineSnapshot(`
        [
          "      | Card payments fail.",
          "      | ",
          "      | We are looking into it.",
        ]
      `);
    expect(renderPlanMarkdown(result)).toContain(
      "> Card payments fail.\n> \n> We are looking into it.\n",
    );
    expect(renderPlanMarkdown(result)).not.toMatch(/> \n*$/);
    expect(renderPlanMarkdown(result)).not.toContain("We are looking into it.\n> \n");
  });

  it("quotes no edit of a message whose only change is a line break at its end", () => {
    const base = opening([FIRST, SECOND]);
    const head = opening([FIRST, [SECOND[0], `${SECOND[1]}\n`]]);
    const result = planOf({ "incidents/checkout.yaml": base }, { "incidents/checkout.yaml": head });
    expect(result.changes.flatMap((change) => ("entries" in change ? change.entries : []))).toEqual(
      [],
    );
    expect(renderPlanText(result)).not.toContain("|");
  });

  it("keeps a line of a message from starting a line of the plan or a CI log's command", () => {
    const result = planOf(
      {},
      {
        "incidents/checkout.yaml": opening([
          ["INVESTIGATING", "::error file=x::pwned\n# Heading\n@team see https://evil.example"],
        ]),
      },
    );
    const text = renderPlanText(result);
    expect(text).toContain("      | \\::error file=x::pwned");
    expect(text.split("\n").some((line) => line.startsWith("::"))).toBe(false);
    const markdown = renderPlanMarkdown(result);
    expect(markdown).toContain("> \\::error file=x::pwned");
    expect(markdown).toContain("> \\# Heading");
    expect(markdown).toContain("`@team`");
  });
});

describe("plan of a new incident renamed", () => {
  it("flags a rename without an alias: the new resource would take the incident the old one opened", () => {
    const before = opening([FIRST, SECOND], "onRemove: resolve");
    const after = before.replace("resource: checkout-down", "resource: checkout-failing");
    const result = planOf({ "incidents/a.yaml": before }, { "incidents/a.yaml": after });
    expect(result.verdict).toBe("policy-violated");
    expect(result.findings).toMatchObject([
      { level: "error", rule: "renamed-without-alias", resource: "checkout-failing" },
    ]);
    expect(result.changes.find((change) => change.kind === "remove")).toMatchObject({
      onRemove: "release",
      redeclaredBy: "checkout-failing",
    });
    // Another first message is another incident: a removal and an addition, as written.
    const other = after.replace("Card payments fail at checkout.", "Checkout is slow.");
    const apart = planOf({ "incidents/a.yaml": before }, { "incidents/a.yaml": other });
    expect(apart.findings.map((finding) => finding.rule)).not.toContain("renamed-without-alias");
  });
});

describe("plan of an incident resolved when its definition is removed", () => {
  const closing = [
    "onRemove: resolve",
    "closing:",
    "  message: Card payments work again.",
    "  notify: true",
  ].join("\n");

  it("says exactly what the removal posts and to whom: the closing as written", () => {
    const before = opening([FIRST], closing);
    const text = renderPlanText(planOf({ "incidents/a.yaml": before }, {}));
    expect(text).toContain(
      'resolved on the status page with a last update, status RESOLVED, "Card payments work again.", sent to every subscriber (unless it is resolved already), then no longer managed',
    );
    const added = renderPlanText(planOf({}, { "incidents/a.yaml": before }));
    expect(added).toContain(
      'closing: a last update, status RESOLVED, "Card payments work again.", sent to every subscriber',
    );
  });

  it("says the default closing and that it notifies nobody, when the definition gives none", () => {
    const before = opening([FIRST], "onRemove: resolve");
    expect(renderPlanText(planOf({ "incidents/a.yaml": before }, {}))).toContain(
      'resolved on the status page with a last update, status RESOLVED, "This incident is resolved.", on the status page only, notifying nobody (unless it is resolved already)',
    );
  });

  it("shows a changed closing as a change of the definition", () => {
    const before = opening([FIRST], closing);
    const after = opening([FIRST], closing.replace("notify: true", "notify: false"));
    const result = planOf({ "incidents/a.yaml": before }, { "incidents/a.yaml": after });
    expect(result.changes[0]).toMatchObject({
      kind: "update",
      fields: [
        {
          field: "closing",
          before: '"Card payments work again.", sent to every subscriber',
          after: '"Card payments work again.", notifying nobody',
        },
      ],
    });
  });
});
