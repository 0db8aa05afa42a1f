import { describe, expect, test } from "vitest";
import { runCli } from "./run-cli";

describe("up, preview and refresh through the one command shape", () => {
  test("without a state backend they say where to put it, in text and as a JSON error document", async () => {
    const text = await runCli(["preview", "--stack", "dev"], process.cwd(), {});
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toBe("");
    expect(text.stderr).toMatchInlineSnapshot(`
      "incident-sync preview: Where is the state? Pass --state <dir> (a directory of your own) or set PULUMI_BACKEND_URL (file://…, s3://…, or https://api.pulumi.com with PULUMI_ACCESS_TOKEN).
      "
    `);

    const json = await runCli(["up", "--format", "json"], process.cwd(), {});
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout).error.type).toBe("UsageError");
  });

  test("--rate-limit is checked before the engine starts", async () => {
    const result = await runCli(
      ["refresh", "--state", "/nonexistent", "--rate-limit", "many"],
      process.cwd(),
      {},
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "incident-sync refresh: --rate-limit must be a whole number of requests per minute from 1 to 60000, not "many".
      "
    `);
  });
});
