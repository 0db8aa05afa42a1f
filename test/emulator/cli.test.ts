import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { PUT_STATUS_ENV } from "../../src/emulator/behaviour-names";
import { CLI, runCli } from "../cli/run-cli";

describe("incident-sync emulator", () => {
  it("takes --rate-limit-burst with --rate-limit-every and applies it to /v1", async () => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        "emulator",
        "--port",
        "0",
        "--format",
        "json",
        "--rate-limit-every",
        "3",
        "--rate-limit-burst",
        "2",
        "--admin-token",
        "cli-admin",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const line = await new Promise<string>((done, fail) => {
        createInterface({ input: child.stdout }).once("line", done);
        child.once("exit", (code) => fail(new Error(`emulator exited with ${code}`)));
      });
      const { url } = JSON.parse(line) as { url: string };
      const faults = await fetch(`${url}/_control/faults`, {
        headers: { authorization: "Bearer cli-admin" },
      });
      expect(await faults.json()).toMatchObject({ rateLimitEvery: 3, rateLimitBurst: 2 });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${url}/v1/error-groups/checks/chk-api`, {
          headers: { authorization: "Bearer demo-key" },
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 429, 429, 200, 429, 429]);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses a burst longer than --rate-limit-every, saying what to change", async () => {
    const run = await runCli(
      ["emulator", "--port", "0", "--rate-limit-every", "3", "--rate-limit-burst", "5"],
      process.cwd(),
    );
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatchInlineSnapshot(`
      "incident-sync emulator: --rate-limit-burst 5 is more than --rate-limit-every 3: a burst is the last requests of every --rate-limit-every; lower it or raise --rate-limit-every.
      "
    `);
  });

  it("takes --put-status, and INCIDENT_SYNC_EMULATOR_PUT_STATUS when the flag is not given", async () => {
    const behaviourOf = async (args: string[], env: NodeJS.ProcessEnv) => {
      const child = spawn(
        process.execPath,
        [CLI, "emulator", "--port", "0", "--format", "json", "--admin-token", "cli-admin", ...args],
        { stdio: ["ignore", "pipe", "inherit"], env: { PATH: process.env.PATH, ...env } },
      );
      try {
        const line = await new Promise<string>((done, fail) => {
          createInterface({ input: child.stdout }).once("line", done);
          child.once("exit", (code) => fail(new Error(`emulator exited with ${code}`)));
        });
        const { url } = JSON.parse(line) as { url: string };
        const answer = await fetch(`${url}/_control/behaviour`, {
          headers: { authorization: "Bearer cli-admin" },
        });
        return await answer.json();
      } finally {
        child.kill("SIGTERM");
      }
    };
    const [flag, variable, both, empty] = await Promise.all([
      behaviourOf(["--put-status", "sets-field"], {}),
      behaviourOf([], { [PUT_STATUS_ENV]: "sets-field" }),
      behaviourOf(["--put-status", "posts-update"], { [PUT_STATUS_ENV]: "sets-field" }),
      // An empty variable (unset in a CI file) is the default, as for the emulator itself.
      behaviourOf([], { [PUT_STATUS_ENV]: "" }),
    ]);
    expect(
      [flag, variable, both, empty].map(
        (behaviour) => (behaviour as { putStatus?: string }).putStatus,
      ),
    ).toEqual(["sets-field", "sets-field", "posts-update", "posts-update"]);
  });

  it("takes --reference-operations: a service without the operations that open incidents answers them 404 or 405", async () => {
    const statusOf = async (choice: string) => {
      const child = spawn(
        process.execPath,
        [CLI, "emulator", "--port", "0", "--format", "json", "--reference-operations", choice],
        { stdio: ["ignore", "pipe", "inherit"], env: { PATH: process.env.PATH } },
      );
      try {
        const line = await new Promise<string>((done, fail) => {
          createInterface({ input: child.stdout }).once("line", done);
          child.once("exit", (code) => fail(new Error(`emulator exited with ${code}`)));
        });
        const { url, apiKey } = JSON.parse(line) as { url: string; apiKey: string };
        const answer = await fetch(`${url}/v1/status-pages/incidents?limit=1`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        return answer.status;
      } finally {
        child.kill("SIGTERM");
      }
    };
    expect(
      await Promise.all(["available", "not-found", "method-not-allowed"].map(statusOf)),
    ).toEqual([200, 404, 405]);
    const refused = await runCli(["emulator", "--reference-operations", "some"], process.cwd());
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("It must be available, not-found or method-not-allowed.");
  });

  it("refuses an unknown behaviour in INCIDENT_SYNC_EMULATOR_PUT_STATUS, listing the allowed ones", async () => {
    const run = await runCli(["emulator", "--port", "0"], process.cwd(), {
      [PUT_STATUS_ENV]: "posts-twice",
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatchInlineSnapshot(`
      "incident-sync emulator: option '--put-status <behaviour>' value 'posts-twice' from env 'INCIDENT_SYNC_EMULATOR_PUT_STATUS' is invalid. It must be posts-update, sets-field or ignores. (see incident-sync emulator --help)
      "
    `);
  });
});
