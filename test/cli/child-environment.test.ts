import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";
import { runCli } from "./run-cli";

/**
 * Issue 36: the key belongs only in the processes that send requests. The git that `plan` and
 * `drift` run to read the base definitions and the last commit of a file sends none: its
 * environment holds no MONITORING_API_KEY, whatever the command's holds.
 */
const KEY = "child-environment-key-0123";

let root: string;
let server: TestServer;
const dumps = () => path.join(root, "git-env");

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "child-env-"));
  const bin = path.join(root, "bin");
  await mkdir(bin);
  // git as the command finds it on PATH: records its environment, then is the real git.
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  await writeFile(path.join(bin, "git"), `#!/bin/sh\nenv >> "${dumps()}"\nexec "${real}" "$@"\n`);
  await chmod(path.join(bin, "git"), 0o755);
  const repo = path.join(root, "repo");
  await mkdir(path.join(repo, "incidents"), { recursive: true });
  await writeFile(
    path.join(repo, "incidents", "a.yaml"),
    "id: inc-a\nname: Checkout is slow\nseverity: MAJOR\nstatus: INVESTIGATING\nservices:\n  - id: svc-a\n    name: Checkout\n",
  );
  const git = (...args: string[]) =>
    execFileSync(real, ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], {
      cwd: repo,
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  server = await startTestServer((_request, response) => sendJson(response, 200, []));
});

afterAll(async () => {
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("the git a command runs", () => {
  it("gets no API key from plan --evidence or drift", async () => {
    const env = {
      PATH: `${path.join(root, "bin")}:${process.env.PATH}`,
      MONITORING_API_URL: server.url,
      MONITORING_API_KEY: KEY,
      MONITORING_ACCOUNT_ID: "acct_1",
    };
    const repo = path.join(root, "repo");
    const plan = await runCli(["plan", "incidents", "--base", "main", "--evidence"], repo, env);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const drift = await runCli(["drift", "incidents", "--format", "json"], repo, env);
    expect(drift.exitCode, drift.stderr).toBe(0);
    const recorded = await readFile(dumps(), "utf8");
    // Both ran git, and none of its runs saw the key.
    expect(recorded).toContain("MONITORING_API_URL=");
    expect(recorded).not.toContain(KEY);
  });
});
