import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/**
 * The kit's shell steps, run as a GitHub runner would run them (bash -eo pipefail, the job's
 * and the step's env), on a copy of this checkout. The actions are stood in for by what they
 * install: checkout (the copy), setup-node (Node 24 on PATH), pulumi/actions (the CLI that
 * `npm run engine` builds, whose version the step pins); `npm ci` by the same install without
 * the download; comments by the file they would post.
 */
async function runJob(
  jobDef: Job,
  cwd: string,
  context: Record<string, string>,
  path: string,
): Promise<{ step: string; code: number; output: string }[]> {
  const results = [];
  const jobEnv = Object.fromEntries(
    Object.entries(jobDef.env ?? {}).map(([k, v]) => [k, expand(v, context)]),
  );
  for (const step of jobDef.steps) {
    if (step.uses || step.run === "npm ci" || step.if) continue;
    const env = {
      PATH: path,
      HOME: context.HOME ?? "",
      PULUMI_HOME: join(context.HOME ?? "", ".pulumi"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      ...jobEnv,
      ...Object.fromEntries(
        Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, context)]),
      ),
    };
    const script = expand(step.run ?? "", context);
    const result = await sh(`set -eo pipefail\n${script}`, cwd, env);
    results.push({ step: step.name ?? step.run ?? "", code: result.code, output: result.output });
    if (result.code !== 0) break;
  }
  return results;
}

describe("the pipeline kit's shell steps, dry-run against a self-managed file backend", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let checkout: string;
  let context: Record<string, string>;
  let path: string;

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("kit", "demo");
    ({ root, emulator, db } = sandbox);
    checkout = copyCheckout(join(root, "checkout"));
    reuseBuild(checkout);
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
    "applies every definition with the merge workflow's steps, the key set through stdin",
    async () => {
      const results = await runJob(job("incidents-apply.yml", "up"), checkout, context, path);
      expect(results.map((r) => [r.step, r.code])).toEqual([
        ["Validate once more before touching the status page", 0],
        ["Log in to the state backend and select the stack", 0],
        ["Apply", 0],
      ]);
      expect(results.at(-1)?.output).toContain("+ 5 created");
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
    "previews a changed definition with the pull-request workflow's steps into the comment file",
    async () => {
      const file = join(checkout, "incidents", "storefront.yaml");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace("severity: MEDIUM", "severity: MAJOR"),
      );
      const results = await runJob(
        job("incidents-pull-request.yml", "preview"),
        checkout,
        context,
        path,
      );
      expect(results.map((r) => [r.step, r.code])).toEqual([
        ["Log in to the state backend and select the stack", 0],
        ["Preview (read-only)", 0],
        ["Fit the preview to a comment", 0],
      ]);
      // Our own summary of the engine's events: no raw engine output, no key.
      const comment = readFileSync(join(checkout, "preview-comment.md"), "utf8");
      expect(comment).toContain("### incident-sync preview on stack `prod`: changes to apply");
      expect(comment).toMatch(/\| `inc-checkout-latency` \| .* \| .*severity/);
      expect(comment).not.toContain("Previewing update");
      expect(comment).not.toContain(emulator.demo.apiKey);
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
      const results = await runJob(
        job("incidents-apply.yml", "up"),
        checkout,
        cloud,
        `${stub}${delimiter}${path}`,
      );
      expect(results.every((r) => r.code === 0)).toBe(true);
      const lines = readFileSync(calls, "utf8").trim().split("\n");
      expect(lines).toEqual([
        "login [token:pul-cloud-token backend:]",
        "stack select --create prod [token:pul-cloud-token backend:]",
        `config set incident-sync:baseUrl ${emulator.url} [token:pul-cloud-token backend:]`,
        `config set incident-sync:accountId ${emulator.demo.accountId} [token:pul-cloud-token backend:]`,
        "config set --secret incident-sync:apiKey [token:pul-cloud-token backend:]",
        "up --yes --skip-preview --continue-on-error --stack prod [token:pul-cloud-token backend:]",
      ]);
      expect(existsSync(calls)).toBe(true);
    },
    timeout,
  );
});
