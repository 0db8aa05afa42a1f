import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunningEmulator } from "../../src/emulator";
import { type EngineLocation, resolveEngine } from "../../src/engine";
import { copyCheckout, repoRoot, reuseBuild } from "./support/checkout";
import { incidentRows } from "./support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./support/emulator-sandbox";
import { sh } from "./support/shell";

const timeout = 600_000;

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  if?: string;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
}

function job(file: string, name: string): Job {
  const flow = parse(
    readFileSync(join(repoRoot, "examples", "github", "workflows", file), "utf8"),
  ) as {
    jobs: Record<string, Job>;
  };
  const found = flow.jobs[name];
  if (!found) throw new Error(`${file} has no job ${name}`);
  return found;
}

/** `${{ secrets.X }}`, `${{ vars.X || 'prod' }}`: GitHub's expressions, as far as the kit uses them. */
function expand(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    for (const operand of expression.split("||").map((part) => part.trim())) {
      const literal = /^'(.*)'$/.exec(operand);
      const value = literal ? literal[1] : context[operand];
      if (value) return value;
    }
    return "";
  });
}

interface JobRun {
  steps: { step: string; code: number; output: string }[];
  /** What the steps appended to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** What the steps appended to GITHUB_OUTPUT. */
  outputs: string;
}

let jobRuns = 0;

/**
 * The kit's shell steps, run as a GitHub runner would run them (`bash -e`, its default for a
 * `run:` without `shell:`; the job's
 * and the step's env, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), on a copy of this checkout.
 * The actions are stood in for by what they install: checkout (the copy), setup-node (Node 24
 * on PATH), pulumi/actions (the CLI that `npm run engine` builds, whose version the step pins);
 * `npm ci` by the same install without the download; comments by the file they would post.
 * Steps with an `if:` are left out, but for those that start with `always()`: the runner
 * decides the others from outcomes.
 */
async function runJob(
  jobDef: Job,
  cwd: string,
  context: Record<string, string>,
  path: string,
): Promise<JobRun> {
  jobRuns += 1;
  const files = join(context.HOME ?? "", "..", `job-${jobRuns}`);
  mkdirSync(files, { recursive: true });
  const summaryFile = join(files, "summary.md");
  const outputFile = join(files, "output");
  writeFileSync(summaryFile, "");
  writeFileSync(outputFile, "");
  const steps = [];
  const jobEnv = Object.fromEntries(
    Object.entries(jobDef.env ?? {}).map(([k, v]) => [k, expand(v, context)]),
  );
  for (const step of jobDef.steps) {
    if (step.uses || step.run === "npm ci" || (step.if && !step.if.startsWith("always()"))) {
      continue;
    }
    const env = {
      PATH: path,
      HOME: context.HOME ?? "",
      PULUMI_HOME: join(context.HOME ?? "", ".pulumi"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      ...jobEnv,
      ...Object.fromEntries(
        Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, context)]),
      ),
    };
    const script = expand(step.run ?? "", context);
    const result = await sh(`set -e\n${script}`, cwd, env);
    steps.push({ step: step.name ?? step.run ?? "", code: result.code, output: result.output });
    if (result.code !== 0) break;
  }
  return {
    steps,
    summary: readFileSync(summaryFile, "utf8"),
    outputs: readFileSync(outputFile, "utf8"),
  };
}

const codes = (run: JobRun) => run.steps.map((r) => [r.step, r.code]);

describe("the pipeline kit's shell steps, dry-run against a self-managed file backend", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let checkout: string;
  let context: Record<string, string>;
  let path: string;

  /** What a pull request from a fork runs with: the same, without a single secret. */
  const forkContext = () =>
    Object.fromEntries(Object.entries(context).filter(([key]) => !key.startsWith("secrets.")));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=kit", "-c", "user.email=kit@example.com", ...args], {
      cwd: checkout,
      encoding: "utf8",
    });
  const storefront = () => join(checkout, "incidents", "storefront.yaml");

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("kit", "demo");
    ({ root, emulator, db } = sandbox);
    checkout = copyCheckout(join(root, "checkout"));
    reuseBuild(checkout);
    // What actions/checkout leaves for a pull request: the base branch as origin/main.
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "main");
    git("update-ref", "refs/remotes/origin/main", "HEAD");
    mkdirSync(join(root, "state"));
    mkdirSync(join(root, "home"));
    path = [
      join(checkout, "node_modules", ".bin"),
      dirname(process.execPath),
      engine.binDir,
      "/usr/local/bin",
      "/usr/bin",
      "/bin",
    ].join(delimiter);
    context = {
      HOME: join(root, "home"),
      "matrix.stack": "prod",
      "github.base_ref": "main",
      "github.event.pull_request.number": "42",
      "github.server_url": "https://github.example",
      "github.repository": "acme/status",
      "github.run_id": "1001",
      "vars.PULUMI_BACKEND_URL": `file://${join(root, "state")}`,
      "secrets.PULUMI_CONFIG_PASSPHRASE": "kit-passphrase",
      "vars.MONITORING_API_URL": emulator.url,
      "vars.MONITORING_ACCOUNT_ID": emulator.demo.accountId,
      "secrets.MONITORING_API_KEY": emulator.demo.apiKey,
    };
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "applies every definition with the merge workflow's steps, the key set through stdin, the report in the job summary",
    async () => {
      const run = await runJob(job("incidents-apply.yml", "up"), checkout, context, path);
      expect(codes(run), JSON.stringify(run.steps)).toEqual([
        ["Validate once more before touching the status page", 0],
        ["Log in to the state backend and select the stack", 0],
        ["Apply", 0],
        ["Name the artifacts after the stack (an artifact's name cannot hold a /)", 0],
        ["Report in the job summary", 0],
      ]);
      expect(run.outputs).toContain("exit=0");
      expect(run.outputs).toContain("artifact=prod\n");
      expect(run.summary).toContain("### incident-sync up on stack `prod`");
      expect(run.summary).toContain("inc-checkout-latency");
      expect(run.summary).not.toContain(emulator.demo.apiKey);
      expect(incidentRows(db, emulator.demo.accountId).get("inc-checkout-latency")?.status).toBe(
        "INVESTIGATING",
      );
      expect(readFileSync(join(checkout, "Pulumi.prod.yaml"), "utf8")).not.toContain(
        emulator.demo.apiKey,
      );
    },
    timeout,
  );

  it(
    "finds no state drift right after the apply",
    async () => {
      const run = await runJob(job("incidents-state.yml", "state"), checkout, context, path);
      expect(codes(run), JSON.stringify(run.steps)).toEqual([
        ["Log in to the state backend and select the stack", 0],
        ["Refresh a copy of the state and preview main against it", 0],
      ]);
      expect(run.summary).toContain(
        "Stack `prod`: the state, the status page and the definitions on main agree.",
      );
    },
    timeout,
  );

  it(
    "previews a changed definition with the pull-request workflow's steps into the comment file, with evidence",
    async () => {
      writeFileSync(
        storefront(),
        readFileSync(storefront(), "utf8").replace("severity: MEDIUM", "severity: MAJOR"),
      );
      const run = await runJob(
        job("incidents-pull-request.yml", "preview"),
        checkout,
        context,
        path,
      );
      expect(codes(run), JSON.stringify(run.steps)).toEqual([
        ["Log in to the state backend and select the stack", 0],
        ["Preview (read-only)", 0],
        ["Evidence from the monitors", 0],
        ["Name the artifacts after the stack (an artifact's name cannot hold a /)", 0],
        ["Fit the preview to a comment and the job summary", 0],
      ]);
      expect(run.outputs).toContain("exit=2");
      // Our own summary of the engine's events: no raw engine output, no key.
      const comment = readFileSync(join(checkout, "preview-comment.md"), "utf8");
      expect(comment).toContain("### incident-sync preview on stack `prod`: changes to apply");
      expect(comment).toMatch(
        /\| Slow checkout for some customers in EU \(inc-checkout-latency\) \| .* \| .*severity/,
      );
      // The plan of the stack, with what the monitors say of the changed incident.
      expect(readFileSync(join(checkout, "evidence.md"), "utf8")).toMatch(/[Ee]vidence/);
      expect(comment).toContain(readFileSync(join(checkout, "evidence.md"), "utf8").trim());
      expect(comment).not.toContain("Previewing update");
      expect(comment).not.toContain(emulator.demo.apiKey);
      expect(run.summary).toBe(comment);
    },
    timeout,
  );

  it(
    "plans a fork's pull request without a secret, into the comment, its pull request number and the job summary",
    async () => {
      const run = await runJob(
        job("incidents-pull-request.yml", "plan"),
        checkout,
        forkContext(),
        path,
      );
      expect(codes(run), JSON.stringify(run.steps)).toEqual([
        ["Plan against the base branch", 0],
        ["Fit the plan to a comment and the job summary", 0],
      ]);
      expect(run.outputs).toContain("exit=2");
      const comment = readFileSync(join(checkout, "plan-comment", "comment.md"), "utf8");
      expect(comment).toContain("inc-checkout-latency");
      expect(comment).toMatch(/severity/);
      expect(readFileSync(join(checkout, "plan-comment", "pull-request"), "utf8")).toBe("42\n");
      expect(run.summary).toBe(comment);
    },
    timeout,
  );

  it(
    "says with a notice, not a failure, why a fork's pull request has no preview",
    async () => {
      const run = await runJob(
        job("incidents-pull-request.yml", "preview-skipped"),
        checkout,
        forkContext(),
        path,
      );
      expect(codes(run)).toEqual([["Say why there is no preview", 0]]);
      expect(run.steps[0]?.output).toMatch(/^::notice title=incident-sync preview::Skipped: /);
    },
    timeout,
  );

  it(
    "posts the plan comment from the run's artifact only to the pull request whose head the run checked",
    async () => {
      const stub = join(root, "gh-bin");
      mkdirSync(stub);
      const artifacts = join(root, "artifacts");
      const calls = join(root, "gh-calls.log");
      // gh as the comment job uses it: `run download RUN --name NAME --dir DIR` copies the
      // artifact a run uploaded, `api repos/R/pulls/N --jq .head.sha` answers the head.
      writeFileSync(
        join(stub, "gh"),
        [
          "#!/bin/sh",
          `echo "$*" >> ${JSON.stringify(calls)}`,
          'if [ "$1" = run ]; then',
          `  [ -d ${JSON.stringify(artifacts)}/"$5" ] || { echo "no artifact $5" >&2; exit 1; }`,
          `  mkdir -p "$7" && cp -R ${JSON.stringify(artifacts)}/"$5"/. "$7"/`,
          'elif [ "$1" = api ]; then',
          '  case "$2" in',
          `    */artifacts) { ls ${JSON.stringify(artifacts)} 2>/dev/null | grep -c incident-sync-plan-comment; } || true ;;`,
          '    */pulls/42) echo "$STUB_HEAD" ;;',
          `    *) echo "${"c".repeat(40)}" ;;`,
          "  esac",
          "fi",
          "",
        ].join("\n"),
      );
      chmodSync(join(stub, "gh"), 0o755);
      const commentJob = job("incidents-comment.yml", "plan-comment");
      const post = async (artifact: string | undefined, head: string) => {
        rmSync(artifacts, { recursive: true, force: true });
        if (artifact !== undefined) {
          mkdirSync(join(artifacts, "incident-sync-plan-comment"), { recursive: true });
          writeFileSync(join(artifacts, "incident-sync-plan-comment", "pull-request"), artifact);
          writeFileSync(
            join(artifacts, "incident-sync-plan-comment", "comment.md"),
            "the plan, cc @team\n",
          );
        }
        const cwd = mkdtempSync(join(root, "comment-"));
        const run = await runJob(
          { ...commentJob, env: { STUB_HEAD: head } },
          cwd,
          {
            ...context,
            "github.token": "gh-token",
            "github.event.workflow_run.id": "1001",
            "github.event.workflow_run.head_sha": "a".repeat(40),
          },
          `${stub}${delimiter}${path}`,
        );
        return { run, cwd };
      };

      const posted = await post("42\n", "a".repeat(40));
      expect(codes(posted.run)).toEqual([["Fetch the comment the pull request's run rendered", 0]]);
      expect(posted.run.outputs).toBe("number=42\n");
      // Posted as rendered, except that no mention can notify anyone.
      expect(readFileSync(join(posted.cwd, "plan-comment", "comment.md"), "utf8")).toBe(
        "the plan, cc @\u200dteam\n",
      );
      expect(readFileSync(calls, "utf8").split("\n").slice(0, 3)).toEqual([
        `api repos/acme/status/actions/runs/1001/artifacts --jq [.artifacts[] | select(.name == "incident-sync-plan-comment")] | length`,
        "run download 1001 --name incident-sync-plan-comment --dir plan-comment",
        "api repos/acme/status/pulls/42 --jq .head.sha",
      ]);

      // Another pull request's number in the artifact: its head is not the run's commit.
      const other = await post("43\n", "a".repeat(40));
      expect(other.run.steps[0]?.code).toBe(0);
      expect(other.run.steps[0]?.output).toContain("Pull request #43 is at cccc");
      expect(other.run.outputs).toBe("");

      // The pull request moved on: its newer run posts, this one does not.
      const moved = await post("42\n", "b".repeat(40));
      expect(moved.run.steps[0]?.code).toBe(0);
      expect(moved.run.steps[0]?.output).toContain(
        "::notice title=incident-sync plan::Pull request #42 is at bbbb",
      );
      expect(moved.run.outputs).toBe("");

      // No artifact (validate failed before the plan): a notice, nothing posted.
      const none = await post(undefined, "a".repeat(40));
      expect(none.run.steps[0]?.code).toBe(0);
      expect(none.run.steps[0]?.output).toContain("left no plan comment");
      expect(none.run.outputs).toBe("");

      // An artifact naming anything but a number is refused.
      const forged = await post("42; echo owned\n", "a".repeat(40));
      expect(forged.run.steps[0]?.code).toBe(1);
      expect(forged.run.steps[0]?.output).toContain("names no pull request number");
      expect(forged.run.outputs).toBe("");
    },
    timeout,
  );

  it(
    "finds state drift once the status page changed outside git, and says so in the summary",
    async () => {
      git("checkout", "-q", "--", "incidents");
      // Someone posts an update on the status page, as its UI does (seen under either PUT).
      emulator.emulator.control.appendIncidentUpdate(
        emulator.demo.accountId,
        "inc-checkout-latency",
        { description: "Found it", status: "IDENTIFIED" },
      );
      const run = await runJob(job("incidents-state.yml", "state"), checkout, context, path);
      expect(codes(run)).toEqual([
        ["Log in to the state backend and select the stack", 0],
        ["Refresh a copy of the state and preview main against it", 1],
      ]);
      expect(run.steps.at(-1)?.output).toContain(
        "::error title=incident-sync state::stack prod differs",
      );
      // The engine's preview in the log names the incident the status page changed.
      expect(run.steps.at(-1)?.output).toContain("inc-checkout-latency");
      expect(run.summary).toContain("Stack `prod`: the state differs from the status page");
    },
    timeout,
  );

  it(
    "logs in to Pulumi Cloud with the access token when no backend URL is set, and no key reaches an argument",
    async () => {
      const stub = join(root, "stub-bin");
      mkdirSync(stub);
      const calls = join(root, "pulumi-calls.log");
      writeFileSync(
        join(stub, "pulumi"),
        `#!/bin/sh\n{ printf '%s' "$*"; printf ' [token:%s backend:%s]\\n' "$PULUMI_ACCESS_TOKEN" "$PULUMI_BACKEND_URL"; } >> ${JSON.stringify(calls)}\ncat > /dev/null\n`,
      );
      chmodSync(join(stub, "pulumi"), 0o755);
      const cloud = {
        ...context,
        "vars.PULUMI_BACKEND_URL": "",
        "secrets.PULUMI_ACCESS_TOKEN": "pul-cloud-token",
      };
      const up = job("incidents-apply.yml", "up");
      const login = up.steps.filter(
        (step) => step.name === "Log in to the state backend and select the stack",
      );
      const run = await runJob(
        { ...up, steps: login },
        checkout,
        cloud,
        `${stub}${delimiter}${path}`,
      );
      expect(codes(run)).toEqual([["Log in to the state backend and select the stack", 0]]);
      const cloudUrl = "https://api.pulumi.com";
      expect(readFileSync(calls, "utf8").trim().split("\n")).toEqual([
        `login [token:pul-cloud-token backend:${cloudUrl}]`,
        `stack select --create prod [token:pul-cloud-token backend:${cloudUrl}]`,
        `config set incident-sync:baseUrl ${emulator.url} [token:pul-cloud-token backend:${cloudUrl}]`,
        `config set incident-sync:accountId ${emulator.demo.accountId} [token:pul-cloud-token backend:${cloudUrl}]`,
        `config set --secret incident-sync:apiKey [token:pul-cloud-token backend:${cloudUrl}]`,
      ]);
    },
    timeout,
  );
});
