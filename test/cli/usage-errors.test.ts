import { describe, expect, test } from "vitest";
import { runCli } from "./run-cli";

/** Every usage error goes out as every other error does: stderr, and the error document. */
describe("a mistake on the command line", () => {
  test("is a UsageError document in the format the command line asks for, and one line on stderr", async () => {
    const run = await runCli(["validate", "--frmat", "x", "--format", "json"], process.cwd(), {});
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        type: "UsageError",
        message:
          "unknown option '--frmat'; did you mean --format? (see incident-sync validate --help)",
      },
    });
    expect(run.stderr).toMatchInlineSnapshot(`
      "incident-sync validate: unknown option '--frmat'; did you mean --format? (see incident-sync validate --help)
      "
    `);
  });

  test("of a subcommand names it, in Markdown as in every other format", async () => {
    const run = await runCli(
      ["report", "heartbeats", "--format", "md", "--since"],
      process.cwd(),
      {},
    );
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatchInlineSnapshot(`
      "### incident-sync report heartbeats: failed

      ❌ option '--since \\<when\\>' argument missing (see incident-sync report heartbeats --help)
      "
    `);
  });

  test("as GitHub annotations for a workflow step", async () => {
    const run = await runCli(["drift", "--format", "github", "--rate-limit"], process.cwd(), {});
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe(
      "::error title=incident-sync drift::option '--rate-limit <n>' argument missing (see incident-sync drift --help)\n",
    );
  });

  test("a --format the command does not take, or --out, leaves stdout empty: the message is on stderr", async () => {
    const wrongFormat = await runCli(["validate", "--format", "csv"], process.cwd(), {});
    expect([wrongFormat.exitCode, wrongFormat.stdout]).toEqual([1, ""]);
    expect(wrongFormat.stderr).toContain(
      "incident-sync validate: option '--format <format>' argument 'csv' is invalid. Allowed choices are text, json, github.",
    );
    const toFile = await runCli(
      ["report", "incident", "--format", "json", "--out", "x.json"],
      process.cwd(),
      {},
    );
    expect([toFile.exitCode, toFile.stdout]).toEqual([1, ""]);
    expect(toFile.stderr).toContain("missing required argument 'id'");
  });

  test("--help, --version and an unknown command keep their exit codes", async () => {
    expect((await runCli(["--version"], process.cwd(), {})).exitCode).toBe(0);
    expect((await runCli(["validate", "--help"], process.cwd(), {})).exitCode).toBe(0);
    const unknown = await runCli(["valdate", "--format", "json"], process.cwd(), {});
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toBe(
      "incident-sync: unknown command 'valdate'; did you mean validate? (see incident-sync --help)\n",
    );
  });
});
