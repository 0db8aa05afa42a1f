import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { createProgram } from "../../src/cli/program";
import { docBlock } from "../support/doc-blocks";

const KIT = path.resolve("examples/github/workflows");

interface Step {
  name?: string;
  id?: string;
  env?: Record<string, string>;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  if?: string;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  "timeout-minutes"?: number;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

async function allWorkflows(): Promise<[string, Workflow][]> {
  const files = (await readdir(KIT)).filter((f) => f.endsWith(".yml"));
  return Promise.all(files.map(async (file) => [file, await workflow(file)] as [string, Workflow]));
}

async function workflow(file: string): Promise<Workflow> {
  return parse(await readFile(path.join(KIT, file), "utf8"), { strict: true }) as Workflow;
}

/** Every `npx incident-sync …` command line of a workflow, split into words. */
function incidentSyncCalls(flow: Workflow): string[][] {
  return Object.values(flow.jobs)
    .flatMap((job) => job.steps)
    .flatMap((step) => (step.run ?? "").split("\n"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("npx incident-sync "))
    .map((line) =>
      line
        .replace(/\s*>.*$/, "")
        .split(/\s+/)
        .slice(2),
    );
}

/** Checks a command line against the real CLI definition: command, flags and --format value. */
function expectKnownToTheCli(words: string[]) {
  let command: Command = createProgram();
  let i = 0;
  for (; i < words.length && !words[i]!.startsWith("-"); i += 1) {
    const sub = command.commands.find((c) => c.name() === words[i]);
    if (!sub) break;
    command = sub;
  }
  expect(command.name(), words.join(" ")).not.toBe("incident-sync");
  for (let j = i; j < words.length; j += 1) {
    const word = words[j]!;
    if (!word.startsWith("--")) continue;
    const option = command.options.find((o) => o.long === word);
    expect(option, `${words.join(" ")}: ${word}`).toBeDefined();
    if (word === "--format") expect(option?.argChoices).toContain(words[j + 1]);
  }
}

/** A GitHub expression as a workflow file writes it: `${{ inner }}`. */
function expression(inner: string): string {
  return `$${"{{"} ${inner} }}`;
}

describe("the GitHub pipeline kit", () => {
  test("every workflow file is valid YAML with jobs that have steps", async () => {
    const files = (await readdir(KIT)).filter((f) => f.endsWith(".yml"));
    expect(files.sort()).toEqual([
      "incidents-apply.yml",
      "incidents-comment.yml",
      "incidents-drift.yml",
      "incidents-pull-request.yml",
      "incidents-state.yml",
    ]);
    for (const file of files) {
      const flow = await workflow(file);
      expect(flow.name, file).toMatch(/^incidents \/ /);
      for (const [name, job] of Object.entries(flow.jobs)) {
        expect(job.steps.length, `${file} ${name}`).toBeGreaterThan(0);
        for (const step of job.steps) expect(step.uses ?? step.run, `${file} ${name}`).toBeTruthy();
      }
    }
  });

  test("the pull-request workflow validates with annotations, plans with no secret into a comment another workflow posts, and previews each stack with evidence", async () => {
    const flow = await workflow("incidents-pull-request.yml");
    expect(Object.keys(flow.on)).toEqual(["pull_request"]);
    expect(Object.keys(flow.jobs)).toEqual(["validate", "plan", "preview", "preview-skipped"]);
    const runs = (job: string) => flow.jobs[job]!.steps.map((s) => s.run ?? "").join("\n");
    expect(runs("validate")).toContain("incident-sync validate incidents --format github");
    expect(runs("plan")).toContain(
      'npx incident-sync plan incidents --base "origin/$BASE_REF" --format markdown > plan.md',
    );
    expect(runs("plan")).toContain(
      'npx incident-sync fit-comment plan.md --link "$FULL_URL" > plan-comment/comment.md',
    );
    expect(runs("plan")).toContain('cat plan-comment/comment.md >> "$GITHUB_STEP_SUMMARY"');
    const handOver = flow.jobs.plan!.steps.find(
      (s) => s.with?.name === "incident-sync-plan-comment",
    );
    expect(handOver?.uses).toMatch(/^actions\/upload-artifact@/);
    expect(handOver?.with?.path).toBe("plan-comment/");
    // Our own rendered summary, never the engine's raw output, in the preview comment, with
    // the monitors' evidence for the stack's changed incidents.
    expect(runs("preview")).toContain(
      'npx incident-sync preview --stack "$PULUMI_STACK" --format markdown > preview.md',
    );
    expect(runs("preview")).toContain(
      'npx incident-sync plan incidents --stack "$PULUMI_STACK" --base "origin/$BASE_REF" --format markdown --evidence > evidence.md',
    );
    expect(runs("preview")).not.toMatch(/pulumi preview/);
    expect(runs("preview")).toContain("npx incident-sync fit-comment preview-full.md");
    const previewComment = flow.jobs.preview!.steps.find((s) =>
      s.uses?.startsWith("marocchino/sticky-pull-request-comment"),
    );
    expect(previewComment?.with).toMatchObject({
      header: `incident-sync-preview-${expression("matrix.stack")}`,
      path: "preview-comment.md",
    });
  });

  test("a fork's pull request gets its plan comment and a notice instead of a preview: every job it runs needs no secret", async () => {
    const flow = (await workflow("incidents-pull-request.yml")) as Workflow & {
      jobs: Record<string, Job & { if?: string; environment?: string }>;
    };
    const sameRepository = "github.event.pull_request.head.repo.full_name == github.repository";
    const fork = "github.event.pull_request.head.repo.full_name != github.repository";
    expect(flow.jobs.preview?.if).toBe(sameRepository);
    expect(flow.jobs["preview-skipped"]?.if).toBe(fork);
    expect(flow.jobs["preview-skipped"]?.steps.map((s) => s.run ?? "").join("")).toMatch(
      /^echo "::notice title=incident-sync preview::Skipped: /,
    );
    const forkRuns = Object.entries(flow.jobs).filter(([, job]) => job.if !== sameRepository);
    expect(forkRuns.map(([name]) => name)).toEqual(["validate", "plan", "preview-skipped"]);
    for (const [name, job] of forkRuns) {
      // No secret to miss, no environment to wait on, no write to be refused.
      expect(JSON.stringify(job), name).not.toMatch(/secrets\./);
      expect(job.environment, name).toBeUndefined();
      expect(Object.values(job.permissions ?? {}), name).not.toContain("write");
    }
  });

  test("the comment workflow posts the plan from the pull request's run, never running its code, and only to the pull request at the commit that run checked", async () => {
    const flow = await workflow("incidents-comment.yml");
    expect(flow.on).toEqual({
      workflow_run: { workflows: ["incidents / pull request"], types: ["completed"] },
    });
    const job = flow.jobs["plan-comment"]!;
    expect(job.permissions).toEqual({
      contents: "read",
      actions: "read",
      "pull-requests": "write",
    });
    expect(job.steps.some((s) => s.uses?.startsWith("actions/checkout"))).toBe(false);
    expect(job.steps.some((s) => /\bnpm\b|\bnpx\b/.test(s.run ?? ""))).toBe(false);
    const fetch = job.steps[0]!;
    expect(fetch.env?.HEAD_SHA).toBe(expression("github.event.workflow_run.head_sha"));
    expect(fetch.run).toContain('if [ "$head" != "$HEAD_SHA" ]; then');
    expect(job.steps.at(-1)?.with).toMatchObject({
      header: "incident-sync-plan",
      number: expression("steps.pr.outputs.number"),
      path: "plan-comment/comment.md",
    });
    // The pull request workflow's name, which workflow_run matches on, is this one's trigger.
    expect((await workflow("incidents-pull-request.yml")).name).toBe("incidents / pull request");
  });

  test("the merge workflow runs incident-sync up on main for each stack in order, one at a time, the report in the job summary and kept whole", async () => {
    const flow = (await workflow("incidents-apply.yml")) as Workflow & {
      concurrency: Record<string, unknown>;
      jobs: Record<string, Job & { strategy?: Record<string, unknown>; environment?: string }>;
    };
    // A team's repository as init writes it: the definitions, the program, the stacks'
    // settings, the packages and the Node version (init adapts the first two to its layout).
    expect(flow.on.push).toMatchObject({
      branches: ["main"],
      paths: [
        "incidents/**",
        "Pulumi*.yaml",
        "index.js",
        "package.json",
        "package-lock.json",
        ".nvmrc",
        ".github/workflows/incidents-apply.yml",
      ],
    });
    expect(flow.concurrency["cancel-in-progress"]).toBe(false);
    const up = flow.jobs.up!;
    expect(up.strategy).toEqual({
      "max-parallel": 1,
      "fail-fast": true,
      matrix: { stack: expression(`fromJSON(vars.INCIDENT_STACKS || '["prod"]')`) },
    });
    expect(up.environment).toBe(`incidents-${expression("matrix.stack")}`);
    expect(up.env?.PULUMI_STACK).toBe(expression("matrix.stack"));
    const step = (name: string) => up.steps.find((s) => s.name === name);
    expect(step("Apply")?.run).toContain(
      'npx incident-sync up --stack "$PULUMI_STACK" --format markdown > up.md',
    );
    // The whole report kept with the run whenever the apply ran, also when it failed; the
    // summary links to it.
    const whenApplied = "always() && steps.apply.outputs.exit != ''";
    expect(step("Keep the whole report with the run")).toMatchObject({
      if: whenApplied,
      with: { path: "up.md" },
    });
    expect(step("Report in the job summary")).toMatchObject({
      if: whenApplied,
      run: 'npx incident-sync fit-comment up.md --link "$FULL_URL" >> "$GITHUB_STEP_SUMMARY"',
    });
    expect(step("Fail when the apply failed")?.if).toBe("steps.apply.outputs.exit != '0'");
  });

  test("the scheduled checks never wait on the apply's approval gate, and nothing can cancel an apply", async () => {
    const all = (await allWorkflows()) as [
      string,
      Workflow & {
        concurrency?: Record<string, unknown>;
        jobs: Record<string, Job & { environment?: string; concurrency?: { group: string } }>;
      },
    ][];
    const flows = Object.fromEntries(all);
    const stack = expression("matrix.stack");
    expect(flows["incidents-apply.yml"]?.jobs.up?.environment).toBe(`incidents-${stack}`);
    expect(flows["incidents-drift.yml"]?.jobs.drift?.environment).toBe(`incidents-${stack}-checks`);
    expect(flows["incidents-state.yml"]?.jobs.state?.environment).toBe(`incidents-${stack}-checks`);
    // The apply's only group is its workflow's, which no other workflow or job takes.
    const applyGroup = flows["incidents-apply.yml"]?.concurrency?.group;
    expect(flows["incidents-apply.yml"]?.jobs.up?.concurrency).toBeUndefined();
    for (const [file, flow] of all) {
      if (file === "incidents-apply.yml") continue;
      expect(flow.concurrency?.group, file).not.toBe(applyGroup);
      for (const job of Object.values(flow.jobs)) {
        expect(job.concurrency?.group, file).not.toBe(applyGroup);
      }
    }
  });

  test("every workflow takes Node from .nvmrc and pins the Pulumi CLI that npm run engine builds", async () => {
    // The version this repository builds its engine at: its pinned devDependency (the
    // package's peer range only sets the lowest a project may bring).
    const sdk = JSON.parse(await readFile("package.json", "utf8")) as {
      devDependencies: Record<string, string>;
    };
    for (const file of (await readdir(KIT)).filter((f) => f.endsWith(".yml"))) {
      const steps = Object.values((await workflow(file)).jobs).flatMap((job) => job.steps);
      for (const step of steps.filter((s) => s.uses?.startsWith("actions/setup-node"))) {
        expect(step.with, file).toMatchObject({ "node-version-file": ".nvmrc" });
      }
      for (const step of steps.filter((s) => s.uses?.startsWith("pulumi/actions"))) {
        expect(step.with?.["pulumi-version"], file).toBe(sdk.devDependencies["@pulumi/pulumi"]);
      }
    }
  });

  test("the scheduled workflows check drift per stack (an issue on exit 2) and each stack's state with a refreshed preview", async () => {
    const flow = await workflow("incidents-drift.yml");
    expect(flow.on.schedule).toEqual([{ cron: "*/15 * * * *" }]);
    expect(flow.jobs.drift?.permissions).toMatchObject({ issues: "write" });
    const steps = flow.jobs.drift!.steps;
    expect(steps.map((s) => s.run ?? "").join("\n")).toContain(
      'npx incident-sync drift incidents --stack "$STACK" --format github',
    );
    const issue = steps.find((s) => s.name === "Open or update the drift issue");
    expect(issue?.if).toBe("steps.drift.outputs.exit == '2'");
    expect(issue?.run).toContain("gh issue edit");
    expect(issue?.run).toContain("gh issue create");
    // What up does with a change made on the status page, in the summary and the issue.
    const policy = steps.find((s) => s.id === "policy");
    expect(policy?.run).toContain('pulumi config get incident-sync:onPageChange --stack "$STACK"');
    expect(policy?.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
    const checking = steps.find((s) => s.id === "drift");
    expect(checking?.env?.PAGE_CHANGE_NOTE).toBe(expression("steps.policy.outputs.note"));
    expect(checking?.run).toMatch(
      /"\$PAGE_CHANGE_NOTE" >> drift-full\.md\n.*fit-comment drift-full\.md/,
    );
    const fail = steps.at(-1);
    expect(fail?.if).toBe("steps.drift.outputs.exit != '0'");
    expect(fail?.run).toContain("exit 1");

    const perStack = { stack: expression(`fromJSON(vars.INCIDENT_STACKS || '["prod"]')`) };
    expect((flow.jobs.drift as Job & { strategy?: { matrix?: unknown } }).strategy?.matrix).toEqual(
      perStack,
    );
    const state = await workflow("incidents-state.yml");
    expect(state.on.schedule).toEqual([{ cron: "30 * * * *" }]);
    expect(
      (state.jobs.state as Job & { strategy?: { matrix?: unknown } }).strategy?.matrix,
    ).toEqual(perStack);
    const check = state.jobs.state!.steps.at(-1)?.run ?? "";
    expect(check).toContain(
      'pulumi preview --refresh --expect-no-changes --suppress-outputs --diff --stack "$PULUMI_STACK"',
    );
    expect(check).toContain('>> "$GITHUB_STEP_SUMMARY"');
  });

  test("the preview's plan --evidence step holds the API settings only, no state backend credential (issue 36)", async () => {
    const flow = await workflow("incidents-pull-request.yml");
    const preview = flow.jobs.preview!;
    const evidence = preview.steps.find((s) => (s.run ?? "").includes("--evidence"));
    expect(evidence?.name).toBe("Evidence from the monitors");
    expect(Object.keys(evidence?.env ?? {}).sort()).toEqual(["BASE_REF", "MONITORING_API_KEY"]);
    // What it inherits: the job's and the workflow's settings, none of them the backend's.
    const inherited = { ...flow.env, ...preview.env };
    expect(Object.keys(inherited).sort()).toEqual([
      "INCIDENT_SYNC_DEADLINE",
      "MONITORING_ACCOUNT_ID",
      "MONITORING_API_URL",
      "PULUMI_STACK",
    ]);
    expect(JSON.stringify(inherited)).not.toMatch(/secrets\./);
  });

  test("every job that runs incident-sync against the API gives it a deadline under the job's timeout (issue 36)", async () => {
    const minutes = (text: string) => Number(/^(\d+)m$/.exec(text)?.[1]);
    for (const [file, flow] of await allWorkflows()) {
      for (const [name, job] of Object.entries(flow.jobs)) {
        const calls = job.steps
          .flatMap((step) => (step.run ?? "").split("\n"))
          .filter((line) =>
            /npx incident-sync (up|preview|refresh|drift|report|plan .*--evidence)\b/.test(line),
          );
        if (calls.length === 0) continue;
        const deadline = minutes(job.env?.INCIDENT_SYNC_DEADLINE ?? "");
        expect(deadline, `${file} ${name}`).toBeGreaterThan(0);
        // Every such command may run to its deadline, one after the other, and still end first.
        expect(deadline * calls.length, `${file} ${name}`).toBeLessThan(
          job["timeout-minutes"] ?? 0,
        );
      }
    }
  });

  test("no step that installs packages has a secret in its environment, its job's or its workflow's", async () => {
    let installs = 0;
    for (const [file, flow] of await allWorkflows()) {
      const inherited = JSON.stringify(flow.env ?? {});
      for (const [name, job] of Object.entries(flow.jobs)) {
        for (const step of job.steps) {
          if (!/\bnpm (ci|install|i)\b|\byarn\b|\bpnpm\b/.test(step.run ?? "")) continue;
          installs += 1;
          const env = inherited + JSON.stringify(job.env ?? {}) + JSON.stringify(step.env ?? {});
          expect(env, `${file} ${name}: ${step.name ?? step.run}`).not.toMatch(/secrets\./);
        }
      }
    }
    expect(installs).toBeGreaterThanOrEqual(5);
  });

  test("names artifacts after a stack with its / replaced, as an artifact's name cannot hold one (acme/prod)", async () => {
    let artifacts = 0;
    for (const [file, flow] of await allWorkflows()) {
      for (const job of Object.values(flow.jobs)) {
        const slug = job.steps.find((step) => step.name?.startsWith("Name the artifacts"));
        for (const step of job.steps.filter((s) => s.uses?.startsWith("actions/upload-artifact"))) {
          artifacts += 1;
          const name = String(step.with?.name ?? "");
          expect(name, file).not.toContain("matrix.stack");
          if (name.includes("steps.stack")) {
            expect(slug?.run, file).toBe(
              `echo "artifact=\${${file === "incidents-drift.yml" ? "STACK" : "PULUMI_STACK"}//\\//-}" >> "$GITHUB_OUTPUT"`,
            );
          }
        }
      }
    }
    expect(artifacts).toBeGreaterThanOrEqual(5);
  });

  test("only the apply creates a stack: the preview and the state check select an existing one", async () => {
    const select = (flow: Workflow, job: string) =>
      flow.jobs[job]?.steps
        .flatMap((step) => (step.run ?? "").split("\n"))
        .map((line) => line.trim())
        .filter((line) => line.startsWith("pulumi stack select"));
    expect(select(await workflow("incidents-apply.yml"), "up")).toEqual([
      'pulumi stack select --create "$PULUMI_STACK"',
    ]);
    expect(select(await workflow("incidents-pull-request.yml"), "preview")).toEqual([
      'pulumi stack select "$PULUMI_STACK"',
    ]);
    expect(select(await workflow("incidents-state.yml"), "state")).toEqual([
      'pulumi stack select "$PULUMI_STACK"',
    ]);
  });

  test("every action is pinned by a full commit SHA with its tag beside it", async () => {
    for (const file of (await readdir(KIT)).filter((f) => f.endsWith(".yml"))) {
      const text = await readFile(path.join(KIT, file), "utf8");
      const uses = [...text.matchAll(/uses:\s*(\S+)(.*)$/gm)];
      expect(uses.length, file).toBeGreaterThan(0);
      for (const [, action, rest] of uses) {
        expect(action, `${file}: ${action}`).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
        expect(rest, `${file}: ${action}`).toMatch(/^ # v\d+\.\d+\.\d+$/);
      }
    }
  });

  test("expressions reach run scripts through env only", async () => {
    for (const [file, flow] of await allWorkflows()) {
      for (const job of Object.values(flow.jobs)) {
        for (const step of job.steps) expect(step.run ?? "", file).not.toContain("${{");
      }
    }
  });

  test("every job has a timeout and the least permissions: only comment and issue writers write", async () => {
    for (const [file, flow] of await allWorkflows()) {
      expect(flow.permissions, file).toEqual({});
      for (const [name, job] of Object.entries(flow.jobs)) {
        expect(job["timeout-minutes"], `${file} ${name}`).toBeGreaterThan(0);
        const reads = Object.entries(job.permissions ?? {})
          .filter(([, level]) => level === "read")
          .map(([scope]) => scope);
        // Reading the code, and for the comment workflow the run's artifact.
        expect(reads, `${file} ${name}`).toEqual(
          file === "incidents-comment.yml" ? ["contents", "actions"] : ["contents"],
        );
        const writes = Object.entries(job.permissions ?? {})
          .filter(([, level]) => level === "write")
          .map(([scope]) => scope);
        const posts = job.steps.some(
          (s) => s.uses?.startsWith("marocchino/sticky-pull-request-comment") ?? false,
        );
        const issues = job.steps.some((s) => /\bgh issue\b/.test(s.run ?? ""));
        expect(writes, `${file} ${name}`).toEqual([
          ...(posts ? ["pull-requests"] : []),
          ...(issues ? ["issues"] : []),
        ]);
        expect(job.permissions?.contents, `${file} ${name}`).toBe("read");
      }
    }
  });

  test("every incident-sync command line in the kit uses a real command, real flags and an allowed format", async () => {
    const calls: string[][] = [];
    for (const file of await readdir(KIT)) calls.push(...incidentSyncCalls(await workflow(file)));
    expect(calls.length).toBeGreaterThanOrEqual(5);
    for (const words of calls) expectKnownToTheCli(words);
  });

  test("docs/pipeline-kit.md's blocks are the workflows' stack, select and apply lines, word for word", async () => {
    const block = (name: string) => docBlock(`pipeline-kit/${name}`).commands;
    const lines = (step: Step | undefined) =>
      (step?.run ?? "")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
    const stackStep = (flow: Workflow, job: string) =>
      flow.jobs[job]?.steps.find(
        (s) => s.name === "Log in to the state backend and select the stack",
      );
    const apply = await workflow("incidents-apply.yml");
    const pullRequest = await workflow("incidents-pull-request.yml");
    const state = await workflow("incidents-state.yml");
    expect(block("stack")).toHaveLength(5);
    expect(lines(stackStep(apply, "up"))).toEqual(block("stack"));
    expect(lines(stackStep(pullRequest, "preview"))).toEqual(block("select"));
    expect(lines(stackStep(state, "state"))).toEqual(block("select"));
    expect(lines(apply.jobs.up?.steps.find((s) => s.name === "Apply"))).toEqual(block("apply"));
  });
});
