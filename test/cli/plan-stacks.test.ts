import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

/*
 * A change of `stacks` in a project made by `init` with the stacks prod and staging (issue
 * 44): a typo is an error at its place, and a stack taken off a list that resolves the incident
 * there is shown stack by stack and needs a new reason, as a lowered severity does.
 */

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Plan Test",
  GIT_AUTHOR_EMAIL: "plan@example.test",
  GIT_COMMITTER_NAME: "Plan Test",
  GIT_COMMITTER_EMAIL: "plan@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

/** An open incident customers see, resolved when a stack stops declaring it. */
const OPEN = `id: inc-payments
name: Card payments fail for some customers
severity: MAJOR
status: IDENTIFIED
services: [svc-example]
onRemove: resolve
`;

/** A new incident that the first up opens: the stack's state gives it its id. */
const OPENING = `resource: payments-declined
name: Payments are declined
severity: MINOR
services: [svc-example]
updates:
  - status: INVESTIGATING
    message: Some payments are declined.
`;

let project: string;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "commit.gpgsign=false", ...args], {
    cwd: project,
    env: { ...process.env, ...GIT_ENV },
    encoding: "utf8",
  }).trim();
const write = (file: string, text: string) =>
  writeFile(path.join(project, "incidents", file), text);
/** The CLI with nothing of this machine's backend or settings. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, project, { ...GIT_ENV, ...env });

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), "incident-sync-plan-stacks-"));
  git("init", "-q", "-b", "main");
  const init = await cli(["init", "--stack", "prod", "--stack", "staging"]);
  expect(init.exitCode, init.stderr).toBe(0);
  await write("payments.yaml", OPEN);
  await write("declined.yaml", OPENING);
  git("add", "-A");
  git("commit", "-q", "-m", "incidents");
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("a change of stacks, in a project made by init with stacks prod and staging", () => {
  it("refuses a stacks entry that names no stack: validate (exit 1) and plan (exit 3), at its place, with did you mean", async () => {
    await write("payments.yaml", `${OPEN}stacks: [prdo]\n`);
    const validate = await cli(["validate"]);
    expect(validate.exitCode).toBe(1);
    expect(validate.stdout).toMatch(
      /^incidents\/payments\.yaml:7:10: stacks entry "prdo" is no stack of .*did you mean "prod"\?/m,
    );
    const plan = await cli(["plan", "--base", "main"]);
    expect(plan.exitCode, plan.stderr).toBe(3);
    expect(plan.stdout).toMatch(
      /error +Card payments fail for some customers \(inc-payments\) \[unknown-stack\] incidents\/payments\.yaml:7:10: stacks entry "prdo" .*did you mean "prod"\?/,
    );
    expect(plan.stdout).not.toContain("Policy passed");
  });

  it("shows prod resolving the incident when stacks becomes [staging], and needs a new reason to pass", async () => {
    await write("payments.yaml", `${OPEN}stacks: [staging]\n`);
    const plan = await cli(["plan", "--base", "main"]);
    expect(plan.exitCode, plan.stderr).toBe(3);
    expect(plan.stdout).toContain("    on stack prod: resolved on the status page");
    // staging declared it before and still does: nothing happens there.
    expect(plan.stdout).not.toMatch(/on stack staging/);
    expect(plan.stdout).toMatch(
      /error +Card payments fail for some customers \(inc-payments\) \[stacks-change-resolves\] this change of stacks takes the incident off stack prod, and up there resolves it/,
    );
    const markdown = await cli(["plan", "--base", "main", "--format", "markdown"]);
    expect(markdown.stdout).toContain(
      "Stack by stack:\n\n- stack prod: resolved on the status page",
    );

    await write(
      "payments.yaml",
      `${OPEN}stacks: [staging]\nreason: The fix is out in prod; staging keeps it open for the soak test\n`,
    );
    const meant = await cli(["plan", "--base", "main"]);
    expect(meant.exitCode, meant.stdout).toBe(2);
    expect(meant.stdout).toContain("    on stack prod: resolved on the status page");
  });

  it("shows a stack that leaves the list releasing the incident when its onRemove is release", async () => {
    await write("payments.yaml", `${OPEN.replace("onRemove: resolve\n", "")}stacks: [staging]\n`);
    git("commit", "-q", "-am", "release on removal");
    await write("payments.yaml", `${OPEN.replace("onRemove: resolve\n", "")}stacks: [prod]\n`);
    const plan = await cli(["plan", "--base", "HEAD"]);
    expect(plan.exitCode, plan.stdout).toBe(2);
    expect(plan.stdout).toContain(
      "    on stack staging: released: left on the status page as it is",
    );
    expect(plan.stdout).toContain("    on stack prod: added");
    git("checkout", "-q", "HEAD~1", "--", "incidents");
    git("commit", "-q", "-m", "back to every stack");
  });

  it("with --stack prod, shows the incident taken off prod as resolved there, and refuses it without a new reason", async () => {
    await write("payments.yaml", `${OPEN}stacks: [staging]\n`);
    const plan = await cli(["plan", "--base", "HEAD", "--stack", "prod"]);
    expect(plan.exitCode, plan.stdout).toBe(3);
    expect(plan.stdout).toMatch(
      /resolved on the status page with .+, then no longer managed \(its stacks no longer names this stack\)/,
    );
    expect(plan.stdout).toContain("[stacks-change-resolves]");
    const staging = await cli(["plan", "--base", "HEAD", "--stack", "staging"]);
    expect(staging.exitCode, staging.stdout).toBe(2);
    await write("payments.yaml", OPEN);
  });

  it("names an incident the first up opened by the id its stack's state holds, never as new once the stack knows it", async () => {
    await write("declined.yaml", OPENING.replace("severity: MINOR", "severity: MAJOR"));
    // No state to read: the id is the stack's, and the incident is not called new.
    const unread = await cli(["plan", "--base", "HEAD"]);
    expect(unread.stdout).toContain(
      "~ Payments are declined (id in the stack's state: payments-declined)",
    );
    expect(unread.stdout).not.toContain("(new: payments-declined)");
    // A file backend whose prod state records the incident the first up opened.
    const state = path.join(project, ".state");
    const stacks = path.join(state, ".pulumi", "stacks", path.basename(project));
    await mkdir(stacks, { recursive: true });
    const urn = (resource: string) =>
      `urn:pulumi:prod::${path.basename(project)}::pulumi-nodejs:dynamic/incident-sync:Incident::${resource}`;
    await writeFile(
      path.join(stacks, "prod.json"),
      JSON.stringify({
        version: 3,
        checkpoint: {
          stack: "organization/x/prod",
          latest: {
            resources: [
              {
                urn: urn("payments-declined"),
                type: "pulumi-nodejs:dynamic/incident-sync:Incident",
                outputs: { incidentId: "5b1c0d6e-0000-4000-8000-000000000001" },
              },
            ],
          },
        },
      }),
    );
    await writeFile(path.join(stacks, "staging.json"), JSON.stringify({ checkpoint: {} }));
    const env = { PULUMI_BACKEND_URL: `file://${state}` };
    const prod = await cli(["plan", "--base", "HEAD", "--stack", "prod"], env);
    expect(prod.stdout).toContain(
      "~ Payments are declined (payments-declined, 5b1c0d6e-0000-4000-8000-000000000001)",
    );
    // Staging's state holds no such incident: there it is still to open.
    const staging = await cli(["plan", "--base", "HEAD", "--stack", "staging"], env);
    expect(staging.stdout).toContain("~ Payments are declined (new: payments-declined)");
    await write("declined.yaml", OPENING);
  });
});
