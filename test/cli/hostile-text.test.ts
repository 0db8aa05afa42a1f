import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectInert } from "../reports/support/markdown";
import { isolatedGitEnv } from "../support/git-env";
import { expectSafeForLogs, HOSTILE_TEXT } from "../support/hostile-text";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";
import { runCli } from "./run-cli";

/**
 * Issue 36's reproductions, through the compiled CLI: a server's update descriptions reached
 * `drift`'s terminal and CI-log output raw (escape sequences, OSC 8 links, CR, U+202E, lines
 * starting `::error`, `::add-mask::`, `::stop-commands::`); `plan --format text` printed a
 * multi-line reason raw; and the Markdown error documents quoted a server message and a
 * definition's text unescaped, so an image, a link, HTML and a mention came out live.
 */
const KEY = "hostile-text-key-0123";
const ALL = Object.values(HOSTILE_TEXT).join(" | ");
const LIVE_MARKDOWN =
  "![pixel](https://evil.example/p.png) [click](https://evil.example) <img src=x onerror=alert(1)> @someone fixes #12";

let server: TestServer;
let repo: string;

const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    env: isolatedGitEnv("t"),
  });
const definition = (fields: string) =>
  `id: inc-a\nname: Checkout is slow\nstatus: RESOLVED\nservices:\n  - id: svc-a\n    name: Checkout\n${fields}`;
const env = () => ({
  MONITORING_API_URL: server.url,
  MONITORING_API_KEY: KEY,
  MONITORING_ACCOUNT_ID: "acct_1",
});

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    if (request.url.pathname.startsWith("/v1/error-groups/")) {
      return sendJson(response, 400, {
        statusCode: 400,
        error: "Bad Request",
        message: `${LIVE_MARKDOWN} ${ALL}`,
      });
    }
    sendJson(response, 200, [
      {
        id: "upd_1",
        description: ALL,
        status: "INVESTIGATING",
        publicIncidentUpdateDate: new Date().toISOString(),
        notifySubscribers: false,
      },
    ]);
  });
  repo = await mkdtemp(path.join(tmpdir(), "hostile-text-"));
  await mkdir(path.join(repo, "incidents"));
  await writeFile(path.join(repo, "incidents", "a.yaml"), definition("severity: CRITICAL\n"));
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  await new Promise((resolve) => setTimeout(resolve, 1_100));
});

afterAll(async () => {
  await server?.close();
  if (repo) await rm(repo, { recursive: true, force: true });
});

describe("server text in drift's reports", () => {
  it("is safe on a terminal and in a CI log, as text", async () => {
    const run = await runCli(["drift", "incidents"], repo, env());
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stdout).toContain("\\u001B[2J");
    expectSafeForLogs(run.stdout);
    expectSafeForLogs(run.stderr);
  });

  it("is safe as GitHub annotations: one for the drifted incident, nothing more", async () => {
    const run = await runCli(["drift", "incidents", "--format", "github"], repo, env());
    expect(run.exitCode, run.stderr).toBe(2);
    expectSafeForLogs(run.stdout, 1);
  });

  it("is inert Markdown", async () => {
    const run = await runCli(["drift", "incidents", "--format", "markdown"], repo, env());
    expect(run.exitCode, run.stderr).toBe(2);
    expectInert(run.stdout);
    expectSafeForLogs(run.stdout);
  });
});

describe("a definition's text in plan's text", () => {
  it("shows a multi-line reason on one line, with nothing a runner reads as a command", async () => {
    const reason = JSON.stringify(
      "lowered\n::error file=incidents/a.yaml,line=1::forged\n::add-mask::x\n \u00a0::stop-commands::t ##[error]y",
    );
    await writeFile(
      path.join(repo, "incidents", "a.yaml"),
      definition(`severity: MINOR\nreason: ${reason}\n`),
    );
    try {
      const run = await runCli(["plan", "incidents", "--base", "main", "--format", "text"], repo);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stdout).toContain("reason: + lowered\\n::error file=");
      expectSafeForLogs(run.stdout);
    } finally {
      git("checkout", "-q", "--", "incidents");
    }
  });
});

describe("Markdown error documents", () => {
  it("show a server's message inert: no image, link, HTML or mention", async () => {
    const run = await runCli(
      ["report", "errors", "--check", "chk-x", "--format", "md"],
      repo,
      env(),
    );
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^### incident-sync report errors: failed/);
    expectInert(run.stdout);
    expectSafeForLogs(run.stdout);
    expectSafeForLogs(run.stderr);
  });

  it("show plan's problems inert, quoting the definition's text", async () => {
    await writeFile(
      path.join(repo, "incidents", "a.yaml"),
      definition(`severity: ${JSON.stringify(LIVE_MARKDOWN)}\n`),
    );
    try {
      const run = await runCli(
        ["plan", "incidents", "--base", "main", "--format", "markdown"],
        repo,
      );
      expect(run.exitCode).toBe(1);
      expect(run.stdout).toContain("<!-- incident-sync-plan -->");
      expectInert(run.stdout.replace(/^<!--.*-->\n/, ""));
      expectSafeForLogs(run.stdout);
    } finally {
      git("checkout", "-q", "--", "incidents");
    }
  });
});
