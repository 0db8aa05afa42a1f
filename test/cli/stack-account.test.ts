import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveApiConnection } from "../../src/cli/api-connection";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { runCli } from "./run-cli";

const connection = { MONITORING_API_URL: "http://127.0.0.1:1", MONITORING_API_KEY: "k" };

/** A project folder with `Pulumi.yaml`, its stack files and an empty definitions directory. */
function project(stacks: Record<string, string | undefined>): string {
  const dir = mkdtempSync(join(tmpdir(), "incident-sync-account-"));
  writeFileSync(join(dir, "Pulumi.yaml"), "name: status\nruntime: nodejs\n");
  for (const [stack, account] of Object.entries(stacks)) {
    const config = account === undefined ? "{}" : `\n  incident-sync:accountId: ${account}`;
    writeFileSync(join(dir, `Pulumi.${stack}.yaml`), `config:${config}\n`);
  }
  mkdirSync(join(dir, "incidents"));
  return dir;
}

describe("the account of a command that reads the API, from the same place as the stack's", () => {
  it("is the one the project's stack files name, when neither --account-id nor MONITORING_ACCOUNT_ID does", () => {
    const dir = project({ prod: "acct-prod", dev: undefined });
    const from = join(dir, "incidents");
    expect(resolveApiConnection({}, connection, { from }).accountId).toBe("acct-prod");
    expect(
      resolveApiConnection({}, { ...connection, MONITORING_ACCOUNT_ID: "acct-env" }, { from })
        .accountId,
    ).toBe("acct-env");
    expect(resolveApiConnection({ accountId: "acct-flag" }, connection, { from }).accountId).toBe(
      "acct-flag",
    );
  });

  it("is the named stack's when the stack files name several, and otherwise an error that lists them", () => {
    const dir = project({ prod: "acct-prod", staging: "acct-staging" });
    const from = join(dir, "incidents");
    expect(resolveApiConnection({}, connection, { from, stack: "acme/prod" }).accountId).toBe(
      "acct-prod",
    );
    expect(() => resolveApiConnection({}, connection, { from })).toThrowErrorMatchingInlineSnapshot(
      `[ApiOptionsError: No account was given, and the stack files name several: Pulumi.prod.yaml "acct-prod", Pulumi.staging.yaml "acct-staging". Pass --account-id (or MONITORING_ACCOUNT_ID), or --stack where the command has it.]`,
    );
  });

  it("is none outside a project, and none when no stack file names one", () => {
    const dir = project({ dev: undefined });
    expect(resolveApiConnection({}, connection, { from: dir }).accountId).toBeUndefined();
    expect(
      resolveApiConnection({}, connection, { from: mkdtempSync(join(tmpdir(), "no-project-")) })
        .accountId,
    ).toBeUndefined();
  });
});

describe("a personal API key, which needs the account", () => {
  let running: RunningEmulator;
  beforeAll(async () => {
    running = await startEmulator({
      port: 0,
      seed: "demo",
      behaviour: { accountHeader: "required" },
    });
  });
  afterAll(async () => {
    await running?.close();
  });

  const env = () => ({ MONITORING_API_URL: running.url, MONITORING_API_KEY: running.demo.apiKey });
  const report = (cwd: string) =>
    runCli(["report", "heartbeats", "--check", "hb-billing-sync", "--format", "json"], cwd, env());

  it("is sent the account of the project's stack config, as up sends it", async () => {
    const run = await report(project({ prod: running.demo.accountId }));
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it("refused for want of an account, says that a personal API key needs one and where to set it", async () => {
    const run = await report(project({ dev: undefined }));
    expect(run.exitCode).toBe(1);
    expect(run.stderr.replace(/\?\S+ failed/, "?<query> failed")).toMatchInlineSnapshot(`
      "incident-sync report heartbeats: GET /v1/checks?<query> failed: 401 Unauthorized: this API key is a personal key: send the account it acts for in x-service-account. The API key was refused: check MONITORING_API_KEY or --api-key. No account was sent (x-service-account), and a personal API key needs one: set --account-id or MONITORING_ACCOUNT_ID.
      "
    `);
  });
});
