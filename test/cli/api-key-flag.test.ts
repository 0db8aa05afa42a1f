import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

describe("--api-key", () => {
  it("is accepted, with a warning first that the key shows in the process list and the variable is safer; the key is never printed", async () => {
    const key = "flag-key-0123456789";
    const run = await runCli(["drift", "--api-key", key], tmpdir(), {});
    const [first] = run.stderr.split("\n");
    expect(first).toBe(
      "incident-sync drift: warning: --api-key shows the API key in the process list (ps) for as long as the command runs; set MONITORING_API_KEY instead, which is safer.",
    );
    // The run goes on (and here stops at the missing URL), as without the warning.
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("Missing the API URL");
    expect(run.stdout + run.stderr).not.toContain(key);
  });

  it("from the environment gives no warning", async () => {
    const run = await runCli(["drift"], tmpdir(), { MONITORING_API_KEY: "env-key-0123456789" });
    expect(run.stderr).not.toContain("warning: --api-key");
  });
});
