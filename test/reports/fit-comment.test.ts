import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fitComment, GITHUB_COMMENT_MAX } from "../../src/markdown";
import { runCli } from "../cli/run-cli";

const table = (rows: number) =>
  [
    "### plan",
    "",
    "| Incident | Change |",
    "|---|---|",
    ...Array.from(
      { length: rows },
      (_, n) => `| inc-${n} | name changed to a longer one, number ${n} |`,
    ),
  ].join("\n");

describe("a comment cut to fit GitHub's limit", () => {
  it("is returned as it is when it fits", () => {
    expect(fitComment(table(3), 10_000)).toBe(table(3));
  });

  it("keeps whole lines within the limit and says how much was left out, with the link", () => {
    const body = fitComment(
      table(5_000),
      GITHUB_COMMENT_MAX,
      "https://github.com/o/r/actions/runs/1/artifacts/2",
    );
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX);
    const lines = body.split("\n");
    const rows = lines.filter((line) => line.startsWith("| inc-"));
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.every((row) => /^\| inc-\d+ \| .* \|$/.test(row))).toBe(true);
    expect(body).toMatch(
      /✂️ Cut to fit a GitHub comment: \d+ of 5004 lines \(\d+ characters in all\) left out\. The whole text: https:\/\/github\.com\/o\/r\/actions\/runs\/1\/artifacts\/2\n$/,
    );
  });

  it("closes a code fence and a details block it cuts through", () => {
    const long = [
      "<details><summary>log</summary>",
      "",
      "```text",
      ...Array.from({ length: 400 }, (_, n) => `line ${n} of the engine's log`),
      "```",
      "</details>",
    ].join("\n");
    const body = fitComment(long, 2_000);
    expect(body.length).toBeLessThanOrEqual(2_000);
    const beforeNote = body.slice(0, body.indexOf("\n\n---\n✂️"));
    expect(beforeNote.match(/^```/gm)).toHaveLength(2);
    expect(beforeNote.endsWith("```\n</details>")).toBe(true);
  });

  it("is what incident-sync fit-comment prints for a file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "incident-sync-fit-"));
    writeFileSync(join(dir, "plan.md"), table(5_000));
    const run = await runCli(
      ["fit-comment", "plan.md", "--link", "https://example.test/run"],
      dir,
      {},
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      fitComment(table(5_000), GITHUB_COMMENT_MAX, "https://example.test/run"),
    );
    const refused = await runCli(["fit-comment", "plan.md", "--max-length", "10"], dir, {});
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("must be a whole number of characters, at least 200");
  });
});
